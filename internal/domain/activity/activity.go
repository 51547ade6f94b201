// Package activity defines the record awf keeps of every tool call, so a user can see afterwards
// what an agent did, through which tool, with what intent, and what came of it.
package activity

import (
	"time"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// Outcome of a call.
type Outcome string

// Outcomes.
const (
	OutcomeSuccess Outcome = "success"
	OutcomeError   Outcome = "error"
	OutcomeRefused Outcome = "refused"
)

// Record is what awf keeps of one tool call (or refusal). Its stored form, one JSON line per
// record, is the activity store's business (internal/infrastructure/activitylog).
type Record struct {
	ID         string
	Time       time.Time
	RunID      string
	Step       string
	Tool       string
	Source     tool.Source
	Arguments  map[string]any
	DurationMS float64
	Outcome    Outcome
	Error      string
	// Code is the stable code of a refusal, an error or a policy warning (fault.*), so a
	// record can be matched without parsing its message; empty for a plain success.
	Code string
	// Intent.Variant is the variant the caller declared (the door it came through, or the
	// tool's own for a direct call): the seed's tool_variant in the stored record.
	// ToolVariant is the tool's own variant, derived from its annotations (CallWith), stored
	// as tool_own_variant (docs/reference/activity-record.md). Both are kept so a call
	// declared `read` on a destructive tool cannot hide: Effective is the stronger of the two.
	Intent      tool.Intent
	ToolVariant tool.Variant
	TraceID     string
	// Sandbox is how the call was confined (Bash only); nil for other tools.
	Sandbox *tool.Confinement
	// Content describes the non-text blocks of the result (kind and size, never the bytes);
	// nil for a text-only result.
	Content []tool.ContentSummary
	// Turn is the turn of a conversation step the call was made in (1 for the first), 0 for a
	// step that keeps no conversation.
	Turn int
	// Kind is KindNetwork for a connection through the step's egress proxy, "" for a tool call.
	Kind string
	// Network is the connection of a KindNetwork record; Tool is then the tool that made it.
	Network *Connection
	// Approval is the decision on a call held for approval (mcp_proxy.intent.ask); nil for a
	// call that was not held.
	Approval *Approval
}

// Effective is the variant a record is filed under: the stronger of the declared one and the
// tool's own (read < write < destructive). An old record without ToolVariant is filed under
// its declared variant.
func (r Record) Effective() tool.Variant {
	return Stronger(r.Intent.Variant, r.ToolVariant)
}

// Stronger returns the more powerful of two variants; an empty or unknown one loses to any
// valid one.
func Stronger(a, b tool.Variant) tool.Variant {
	if rank(b) > rank(a) {
		return b
	}
	return a
}

func rank(v tool.Variant) int {
	for i, x := range tool.Variants {
		if v == x {
			return i + 1
		}
	}
	return 0
}

// Filter selects records for `awf activity list`. Empty fields match everything.
type Filter struct {
	RunID   string
	Tool    string
	Outcome Outcome
	// IntentType matches the record's effective variant (see Record.Effective).
	IntentType tool.Variant
	// Kind matches KindOf: KindCall or KindNetwork.
	Kind string
}

// Match reports whether r passes the filter.
func (f Filter) Match(r Record) bool {
	return (f.RunID == "" || r.RunID == f.RunID) &&
		(f.Tool == "" || r.Tool == f.Tool) &&
		(f.Outcome == "" || r.Outcome == f.Outcome) &&
		(f.IntentType == "" || r.Effective() == f.IntentType) &&
		(f.Kind == "" || r.KindOf() == f.Kind)
}
