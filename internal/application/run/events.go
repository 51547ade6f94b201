package run

import "time"

// StepStatus is how a step ended.
type StepStatus string

// Step statuses.
const (
	StepSuccess StepStatus = "success"
	StepFailure StepStatus = "failure"
)

// StepResult is one executed step, as reported to the user and kept for templates.
type StepResult struct {
	Name     string        `json:"name"`
	Type     string        `json:"type"`
	Status   StepStatus    `json:"status"`
	ExitCode int           `json:"exit_code"`
	Duration time.Duration `json:"-"`
	Output   string        `json:"output,omitempty"`
	Stderr   string        `json:"stderr,omitempty"`
	Error    string        `json:"error,omitempty"`
	Next     string        `json:"next,omitempty"`
	// Tools summarises the step's tool calls through awf's proxy, by tool, variant and outcome.
	Tools string `json:"tools,omitempty"`
}

// Observer receives progress as the run goes, so the terminal can show each step while it runs.
// Calls come from the runner's goroutine, in order.
type Observer interface {
	StepStarted(name, kind string)
	StepFinished(r StepResult)
}

// NopObserver ignores progress.
type NopObserver struct{}

// StepStarted implements Observer.
func (NopObserver) StepStarted(string, string) {}

// StepFinished implements Observer.
func (NopObserver) StepFinished(StepResult) {}

// Result is the whole run.
type Result struct {
	RunID    string        `json:"run_id"`
	Workflow string        `json:"workflow"`
	Status   string        `json:"status"` // success | failure | error | interrupted
	Terminal string        `json:"terminal,omitempty"`
	Duration time.Duration `json:"-"`
	Steps    []StepResult  `json:"steps"`
}
