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

// Record is one line of the activity file.
type Record struct {
	ID         string         `json:"id"`
	Time       time.Time      `json:"time"`
	RunID      string         `json:"run_id,omitempty"`
	Step       string         `json:"step,omitempty"`
	Tool       string         `json:"tool"`
	Source     tool.Source    `json:"source,omitempty"`
	Arguments  map[string]any `json:"arguments,omitempty"`
	DurationMS float64        `json:"duration_ms"`
	Outcome    Outcome        `json:"outcome"`
	Error      string         `json:"error,omitempty"`
	Intent     tool.Intent    `json:"intent"`
	TraceID    string         `json:"trace_id,omitempty"`
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
