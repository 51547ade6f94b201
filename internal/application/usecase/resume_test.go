package usecase

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

const wfSource = "name: flow\n"

func resumeFixture(status string, pid int) (*runFixture, *memRuns) {
	fx := newRun(validate.Report{Name: "flow", Workflow: flow(agentState())})
	store := &memRuns{alive: map[int]bool{42: true}, source: map[string]string{"/proj/flow.yaml": wfSource}, recs: map[string]runrecord.Record{
		"r0": {ID: "r0", Workflow: "flow", File: "/proj/flow.yaml", SourceHash: runrecord.Hash([]byte(wfSource)), Status: status, PID: pid,
			Current: "ask", Started: time.Unix(1, 0), Inputs: map[string]any{"count": 2.0}},
	}}
	fx.uc.Runs, fx.uc.PID = store, 99
	return fx, store
}

func TestResume(t *testing.T) {
	tests := []struct {
		name     string
		status   string
		pid      int
		req      ResumeRequest
		edit     bool
		wantCode string
		wantRun  bool
	}{
		{name: "interrupted resumes", status: runrecord.Interrupted, req: ResumeRequest{ID: "r0"}, wantRun: true},
		{name: "crashed resumes", status: runrecord.Running, pid: 7, req: ResumeRequest{ID: "r0"}, wantRun: true},
		{name: "still running refused", status: runrecord.Running, pid: 42, req: ResumeRequest{ID: "r0"}, wantCode: fault.UserRunNotResumable},
		{name: "succeeded refused", status: runrecord.Succeeded, req: ResumeRequest{ID: "r0"}, wantCode: fault.UserRunNotResumable},
		{name: "unknown id", status: runrecord.Failed, req: ResumeRequest{ID: "zz"}, wantCode: fault.UserRunNotFound},
		{name: "unknown from", status: runrecord.Failed, req: ResumeRequest{ID: "r0", From: "nope"}, wantCode: fault.UserRunUnknownState},
		{name: "changed refused", status: runrecord.Failed, req: ResumeRequest{ID: "r0"}, edit: true, wantCode: fault.UserRunWorkflowChanged},
		{name: "changed forced", status: runrecord.Failed, req: ResumeRequest{ID: "r0", Force: true}, edit: true, wantRun: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, store := resumeFixture(tt.status, tt.pid)
			if tt.edit {
				store.source["/proj/flow.yaml"] = "name: flow\n# edited\n"
			}
			err := fx.uc.Resume(context.Background(), tt.req)
			if tt.wantCode != "" {
				if fault.CodeOf(err) != tt.wantCode || len(fx.logs) != 0 {
					t.Fatalf("err %v (logs %v), want %s and nothing started", err, fx.logs, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rec := store.recs["r0"]
			if rec.Status != runrecord.Succeeded || rec.Resumed != 1 || rec.PID != 99 || fx.v.target != "/proj/flow.yaml" || fx.view.res.RunID != "r0" {
				t.Fatalf("after resume: %+v (validated %q)", rec, fx.v.target)
			}
			if len(rec.Steps) != 1 || rec.Steps[0].Name != "ask" || fx.logs[0] != "/proj/.awf/runs/r0/run.log" {
				t.Fatalf("steps %+v logs %v", rec.Steps, fx.logs)
			}
			if tt.edit && rec.SourceHash != runrecord.Hash([]byte("name: flow\n# edited\n")) {
				t.Fatal("a forced resume keeps the old copy's hash")
			}
		})
	}
}

func TestResumeMissingSourceAndInvalid(t *testing.T) {
	fx, store := resumeFixture(runrecord.Failed, 0)
	delete(store.source, "/proj/flow.yaml")
	if err := fx.uc.Resume(context.Background(), ResumeRequest{ID: "r0"}); fault.CodeOf(err) != fault.UserWorkflowNotFound {
		t.Fatalf("missing file: %v", err)
	}
	fx, _ = resumeFixture(runrecord.Failed, 0)
	fx.v.err = errors.New("boom")
	if err := fx.uc.Resume(context.Background(), ResumeRequest{ID: "r0"}); err == nil || err.Error() != "boom" {
		t.Fatalf("validator error: %v", err)
	}
	fx, _ = resumeFixture(runrecord.Failed, 0)
	fx.v.rep.Diagnostics = fault.Diagnostics{{Code: fault.UserWorkflowNotFound, Severity: fault.SeverityError}}
	var rep *Reported
	if err := fx.uc.Resume(context.Background(), ResumeRequest{ID: "r0"}); !errors.As(err, &rep) || fx.view.invalid == nil {
		t.Fatalf("invalid workflow: %v", err)
	}
}

func TestNewRecordKeepsTheSource(t *testing.T) {
	fx, store := resumeFixture(runrecord.Failed, 0)
	wf := flow(nil)
	wf.File = "/proj/flow.yaml"
	rec := fx.uc.newRecord("r9", wf, map[string]any{"count": int64(3)})
	if rec.Source != wfSource || rec.SourceHash != runrecord.Hash([]byte(wfSource)) || rec.PID != 99 || rec.Status != runrecord.Running || rec.Current != "done" {
		t.Fatalf("record %+v", rec)
	}
	_ = store
}

func TestResumeAt(t *testing.T) {
	wf := flow(agentState())
	tests := []struct {
		current string
		steps   []runrecord.Step
		want    string
	}{
		{"ask", nil, "ask"},
		{"failed", []runrecord.Step{{Name: "ask", Status: "failure", Next: "failed"}, {Name: "x", Within: "l", Status: "failure"}}, "ask"},
		{"failed", []runrecord.Step{{Name: "ask", Status: "success"}}, "failed"},
		{"gone", nil, "gone"},
	}
	for _, tt := range tests {
		if got := resumeAt(runrecord.Record{Current: tt.current, Steps: tt.steps}, wf); got != tt.want {
			t.Errorf("resumeAt(%s, %v) = %s, want %s", tt.current, tt.steps, got, tt.want)
		}
	}
}

// TestResumeFrom: --from current is the default point, previous the main-flow state before it,
// a state's name itself (also a state named like a keyword); previous with nothing before it is
// refused.
func TestResumeFrom(t *testing.T) {
	wf := flow(agentState())
	wf.States["previous"] = &workflow.State{Name: "previous", Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusSuccess}}
	ran := []runrecord.Step{{Name: "a", Status: "success", Next: "b"}, {Name: "x", Within: "b[0]", Status: "success"}, {Name: "b", Status: "success", Next: "ask"}}
	tests := []struct {
		from, current string
		steps         []runrecord.Step
		want, code    string
	}{
		{"", "ask", ran, "ask", ""},
		{"current", "ask", ran, "ask", ""},
		{"ask", "done", ran, "ask", ""},
		{"previous", "previous", ran, "previous", ""}, // a state named previous wins
	}
	for _, tt := range tests {
		got, err := resumeFrom(runrecord.Record{Current: tt.current, Steps: tt.steps}, wf, tt.from)
		if got != tt.want || fault.CodeOf(err) != tt.code {
			t.Errorf("--from %q at %s: %q %v, want %q", tt.from, tt.current, got, err, tt.want)
		}
	}
	delete(wf.States, "previous")
	if got, err := resumeFrom(runrecord.Record{Current: "ask", Steps: ran}, wf, "previous"); got != "b" || err != nil {
		t.Errorf("--from previous: %q %v, want b (the main-flow state before ask, not the loop's x)", got, err)
	}
	if _, err := resumeFrom(runrecord.Record{ID: "r", Current: "ask"}, wf, "previous"); fault.CodeOf(err) != fault.UserRunUnknownState {
		t.Errorf("--from previous with nothing before: %v", err)
	}
}
