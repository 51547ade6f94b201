package activity

import "time"

// Approval is the answer to a call held for approval (mcp_proxy.intent.ask): whether it was
// approved, who decided, and when. A record keeps it so that a destructive call that ran can be
// traced to the person (or the timeout) that let it, or stopped it
// (docs/reference/activity-record.md).
type Approval struct {
	// Decision is ApprovalApprove or ApprovalDeny.
	Decision string
	// By is who decided: ApprovedByAPI, ApprovedByPage, ApprovedByTerminal or ApprovedByTimeout.
	By string
	// At is when the decision was made.
	At time.Time
}

// Approval decisions, as written in the record and in a decision file.
const (
	ApprovalApprove = "approve"
	ApprovalDeny    = "deny"
)

// Who decided: the API, the run's live page, the terminal of `awf run`, or nobody in time.
const (
	ApprovedByAPI      = "api"
	ApprovedByPage     = "page"
	ApprovedByTerminal = "terminal"
	ApprovedByTimeout  = "timeout"
)

// Approved reports whether the call may run.
func (a Approval) Approved() bool { return a.Decision == ApprovalApprove }

// ValidDecider reports whether by names a decider a decision file may claim (timeout is the
// holder's own and never comes from a file).
func ValidDecider(by string) bool {
	return by == ApprovedByAPI || by == ApprovedByPage || by == ApprovedByTerminal
}
