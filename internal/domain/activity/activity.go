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
	Intent     tool.Intent
	TraceID    string
	// Sandbox is how the call was confined (Bash only); nil for other tools.
	Sandbox *tool.Confinement
}

// Filter selects records for `awf activity list`. Empty fields match everything.
type Filter struct {
	RunID      string
	Tool       string
	Outcome    Outcome
	IntentType tool.Variant
}

// Match reports whether r passes the filter.
func (f Filter) Match(r Record) bool {
	return (f.RunID == "" || r.RunID == f.RunID) &&
		(f.Tool == "" || r.Tool == f.Tool) &&
		(f.Outcome == "" || r.Outcome == f.Outcome) &&
		(f.IntentType == "" || r.Intent.Variant == f.IntentType)
}
