package routing

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// ApprovalRequest is a call held for approval, as a decider is shown it.
type ApprovalRequest struct {
	RunID   string
	Step    string
	Tool    string
	Variant tool.Variant
	// Args are the call's arguments (already masked by nobody: the Approver masks them before
	// they leave the process).
	Args map[string]any
}

// Approver asks someone whether a held call may run and waits for the answer
// (docs/decisions/0032-serve-and-live-pages.md). It returns the decision, which is a deny by
// activity.ApprovedByTimeout when nobody answered in time; an error means the request could not
// be put to anyone, and the call is then refused. It must return when ctx ends.
type Approver interface {
	Await(ctx context.Context, req ApprovalRequest) (activity.Approval, error)
}

// ApprovalPolicy wraps the step's Policy: a call the inner policy allows whose variant is in Ask
// waits for an Approver before it runs (mcp_proxy.intent.ask). Anything else is the inner
// policy's decision unchanged. It blocks, unlike other policies, so the router calls it through
// DecideContext with the call's context.
type ApprovalPolicy struct {
	Inner    Policy
	Ask      []tool.Variant
	Approver Approver
	RunID    string
	Step     string
}

// contextPolicy is a Policy that needs the call's context because it may wait.
type contextPolicy interface {
	DecideContext(ctx context.Context, def tool.Definition, call CallInfo) Decision
}

// Decide is DecideContext without a context to end the wait; the router never uses it.
func (p ApprovalPolicy) Decide(def tool.Definition, call CallInfo) Decision {
	return p.DecideContext(context.Background(), def, call)
}

// DecideContext holds the call when its variant (the stronger of the declared one and the
// tool's own, so a destructive tool called through call_tool_read still waits) is in Ask.
func (p ApprovalPolicy) DecideContext(ctx context.Context, def tool.Definition, call CallInfo) Decision {
	d := p.Inner.Decide(def, call)
	if !d.Allow {
		return d
	}
	v := activity.Stronger(d.Intent.Variant, tool.CallWith(def.Annotations))
	if !slices.Contains(p.Ask, v) {
		return d
	}
	if p.Approver == nil {
		return refuseHeld(d, fault.ExecutionToolApprovalDenied, fmt.Sprintf("the %s call to %s needs approval, and this step has nobody to ask; do not retry it", v, call.Tool))
	}
	a, err := p.Approver.Await(ctx, ApprovalRequest{RunID: p.RunID, Step: p.Step, Tool: call.Tool, Variant: v, Args: call.Args})
	if err != nil {
		return refuseHeld(d, fault.ExecutionToolApprovalDenied, fmt.Sprintf("the %s call to %s needs approval, which could not be asked for (%v); do not retry it", v, call.Tool, err))
	}
	if a.At.IsZero() {
		a.At = time.Now().UTC()
	}
	d.Approval = &a
	switch {
	case a.Approved():
		return d
	case a.By == activity.ApprovedByTimeout:
		return refuseHeld(d, fault.ExecutionToolApprovalTimeout, fmt.Sprintf("the %s call to %s was refused: nobody approved it in time; do not retry it, say in your answer that it needs approval", v, call.Tool))
	default:
		return refuseHeld(d, fault.ExecutionToolApprovalDenied, fmt.Sprintf("the %s call to %s was denied by the user (%s); do not retry it, continue without it", v, call.Tool, a.By))
	}
}

// refuseHeld turns an allowed decision into the refusal of a held call.
func refuseHeld(d Decision, code, msg string) Decision {
	d.Allow = false
	d.Code = code
	d.Message = msg
	d.Intent.Decision = DecisionRefuse
	return d
}
