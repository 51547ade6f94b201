package run

import (
	"time"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// StepStatus is how a step ended.
type StepStatus string

// Step statuses.
const (
	StepSuccess StepStatus = "success"
	StepFailure StepStatus = "failure"
)

// Run statuses, as Result.Status and RunFinished.Status report them.
const (
	RunSuccess     = "success"
	RunFailure     = "failure"
	RunError       = "error"
	RunInterrupted = "interrupted"
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
	// Response is the step's structured result, when its kind has one (operation, call_workflow).
	Response map[string]any `json:"response,omitempty"`
	// Attempts counts the runs of the step when its retry policy ran it more than once.
	Attempts int `json:"attempts,omitempty"`
	// JSON is the parsed answer of an agent step with output_format: json.
	JSON any `json:"-"`
	// Session is the conversation of an agent step that tracks one.
	Session *ports.AgentSession `json:"conversation,omitempty"`
	// Within is the loop iteration or parallel state the step ran in ("files[2]", "checks"),
	// "" for a step of the main flow.
	Within string `json:"within,omitempty"`
	// Iterations counts the iterations a loop state ran; Exhausted says it stopped at
	// max_iterations with its condition not met, and Note says so in words for the console.
	Iterations int    `json:"iterations,omitempty"`
	Exhausted  bool   `json:"exhausted,omitempty"`
	Note       string `json:"note,omitempty"`
}

// Event is something that happened in a run. The scheduler emits them in order; the Result, the
// console and (later) the run journal are all built from them, so they cannot disagree.
type Event interface{ event() }

// RunStarted opens a run, before its inputs are checked.
type RunStarted struct {
	RunID    string
	Workflow string
}

// StepStarted says a state began to execute.
type StepStarted struct {
	Name string
	Kind string
	// Within is the loop iteration or parallel state the step runs in, "" in the main flow.
	Within string
}

// StepRetrying says an attempt of a step failed and another follows after Wait.
type StepRetrying struct {
	Name     string
	Attempt  int // the attempt that failed, 1-based
	Of       int // the policy's max_attempts
	Wait     time.Duration
	ExitCode int
	Error    string
}

// StepFinished carries the result of a step, with the state the run goes to next.
type StepFinished struct{ Step StepResult }

// RunFinished closes a run. Err is the run's coded error, nil on success.
type RunFinished struct {
	Status   string
	Terminal string
	Duration time.Duration
	Err      error
}

func (RunStarted) event()   {}
func (StepStarted) event()  {}
func (StepRetrying) event() {}
func (StepFinished) event() {}
func (RunFinished) event()  {}

// Observer receives a run's events as they happen, so the terminal can show each step while it
// runs. Calls come from the scheduler's goroutine, in order.
type Observer interface {
	Observe(e Event)
}

// NopObserver ignores every event.
type NopObserver struct{}

// Observe implements Observer.
func (NopObserver) Observe(Event) {}

// observers fans one event out to several observers, in order.
type observers []Observer

func (obs observers) Observe(e Event) {
	for _, o := range obs {
		o.Observe(e)
	}
}

// Result is the whole run.
type Result struct {
	RunID    string        `json:"run_id"`
	Workflow string        `json:"workflow"`
	Status   string        `json:"status"` // success | failure | error | interrupted
	Terminal string        `json:"terminal,omitempty"`
	Duration time.Duration `json:"-"`
	Steps    []StepResult  `json:"steps"`
}

// resultBuilder builds the Result from the events, as any other observer could.
type resultBuilder struct{ res Result }

func (b *resultBuilder) Observe(e Event) {
	switch e := e.(type) {
	case RunStarted:
		b.res = Result{RunID: e.RunID, Workflow: e.Workflow, Status: RunError}
	case StepFinished:
		b.res.Steps = append(b.res.Steps, e.Step)
	case RunFinished:
		b.res.Status, b.res.Terminal, b.res.Duration = e.Status, e.Terminal, e.Duration
	}
}
