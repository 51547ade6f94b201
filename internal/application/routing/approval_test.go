package routing

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// fakeApprover answers every request with a fixed decision or error and remembers the requests.
type fakeApprover struct {
	mu   sync.Mutex
	reqs []ApprovalRequest
	a    activity.Approval
	err  error
}

func (f *fakeApprover) Await(_ context.Context, req ApprovalRequest) (activity.Approval, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	return f.a, f.err
}

// A call whose variant is in ask waits for the approver: approved it runs, denied or timed out
// it is refused with its code and a text saying not to retry; the record keeps the decision.
// Calls of other variants, and calls the intent rule refuses, are never put to the approver.
func TestApprovalPolicy(t *testing.T) {
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	approve := activity.Approval{Decision: activity.ApprovalApprove, By: activity.ApprovedByAPI, At: at}
	deny := activity.Approval{Decision: activity.ApprovalDeny, By: activity.ApprovedByPage, At: at}
	timeout := activity.Approval{Decision: activity.ApprovalDeny, By: activity.ApprovedByTimeout, At: at}
	for _, tc := range []struct {
		name     string
		tool     string
		allow    []tool.Variant
		approver *fakeApprover
		nilAppr  bool
		asked    bool
		ran      bool
		code     string
		msg      string
		approval *activity.Approval
	}{
		{name: "approved", tool: "destr", approver: &fakeApprover{a: approve}, asked: true, ran: true, approval: &approve},
		{name: "denied", tool: "destr", approver: &fakeApprover{a: deny}, asked: true, code: fault.ExecutionToolApprovalDenied, msg: "denied by the user (page)", approval: &deny},
		{name: "timeout", tool: "destr", approver: &fakeApprover{a: timeout}, asked: true, code: fault.ExecutionToolApprovalTimeout, msg: "nobody approved it in time", approval: &timeout},
		{name: "approver error", tool: "destr", approver: &fakeApprover{err: errors.New("disk full")}, asked: true, code: fault.ExecutionToolApprovalDenied, msg: "could not be asked for (disk full)"},
		{name: "nobody to ask", tool: "destr", nilAppr: true, code: fault.ExecutionToolApprovalDenied, msg: "nobody to ask"},
		{name: "read not held", tool: "ro", approver: &fakeApprover{a: deny}, ran: true},
		{name: "write not held", tool: "writer", approver: &fakeApprover{a: deny}, ran: true},
		{name: "refused by the rule first", tool: "destr", allow: []tool.Variant{tool.VariantRead}, approver: &fakeApprover{a: approve}, code: fault.UserIntentNotAllowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := IntentSettings{Strict: true, Allow: tc.allow, Ask: []tool.Variant{tool.VariantDestructive}}
			if !tc.nilAppr {
				s.Approver = tc.approver
			}
			h := newExposureHarness(t, s)
			res := h.e.CallTool(context.Background(), tc.tool, []byte(`{}`))
			if ran := h.p.calls.Load() == 1; ran != tc.ran {
				t.Errorf("ran = %v, want %v (%+v)", ran, tc.ran, res)
			}
			if tc.approver != nil && (len(tc.approver.reqs) == 1) != tc.asked {
				t.Errorf("asked %d times, want asked=%v", len(tc.approver.reqs), tc.asked)
			}
			if tc.asked {
				r := tc.approver.reqs[0]
				if r.Tool != tc.tool || r.Variant != tool.VariantDestructive || r.RunID != "run-1" || r.Step != "review" {
					t.Errorf("request = %+v", r)
				}
			}
			recs := h.sink.all()
			if len(recs) != 1 {
				t.Fatalf("%d records", len(recs))
			}
			rec := recs[0]
			if rec.Code != tc.code && !(tc.code == "" && rec.Outcome == activity.OutcomeSuccess) {
				t.Errorf("code = %q, want %q", rec.Code, tc.code)
			}
			if tc.msg != "" && (!res.IsError || !strings.Contains(res.JoinedText(), tc.msg) || rec.Outcome != activity.OutcomeRefused) {
				t.Errorf("result %q (outcome %s), want a refusal saying %q", res.JoinedText(), rec.Outcome, tc.msg)
			}
			switch {
			case tc.approval == nil && rec.Approval != nil:
				t.Errorf("approval recorded: %+v", rec.Approval)
			case tc.approval != nil && (rec.Approval == nil || *rec.Approval != *tc.approval):
				t.Errorf("approval = %+v, want %+v", rec.Approval, tc.approval)
			}
		})
	}
}

// A destructive tool called through call_tool_read in split mode is held all the same: the
// variant that counts is the stronger of the declared one and the tool's own.
func TestApprovalPolicySplitDeclaredRead(t *testing.T) {
	ap := &fakeApprover{a: activity.Approval{Decision: activity.ApprovalDeny, By: activity.ApprovedByAPI}}
	h := newExposureHarness(t, IntentSettings{Split: true, Strict: false, Ask: []tool.Variant{tool.VariantDestructive}, Approver: ap})
	res := h.e.CallTool(context.Background(), tool.SplitToolName(tool.VariantRead), []byte(`{"name":"destr","args":{}}`))
	if len(ap.reqs) != 1 || !res.IsError || h.p.calls.Load() != 0 {
		t.Errorf("asked %d, result %q, calls %d: a destructive tool behind call_tool_read must be held", len(ap.reqs), res.JoinedText(), h.p.calls.Load())
	}
}
