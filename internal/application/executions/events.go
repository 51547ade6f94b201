package executions

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// Event types, the reference awf's names plus tool.call.
const (
	StepStarted       = "step.started"
	StepCompleted     = "step.completed"
	StepFailed        = "step.failed"
	WorkflowCompleted = "workflow.completed"
	WorkflowFailed    = "workflow.failed"
	Output            = "output"
	ToolCall          = "tool.call"
)

// Event is one server-sent event of a run. Its JSON fields are the reference awf's
// (step_name, status, output, error, started_at, completed_at, workflow_name) and, for
// tool.call, what the activity record says of the call.
type Event struct {
	Type         string `json:"-"`
	ExecutionID  string `json:"execution_id"`
	WorkflowName string `json:"workflow_name,omitempty"`
	StepName     string `json:"step_name,omitempty"`
	Within       string `json:"within,omitempty"`
	Status       string `json:"status,omitempty"`
	Output       string `json:"output,omitempty"`
	// Partial marks an output event holding one line as the step wrote it (Stream "stderr" for
	// its standard error); an output event without it holds the step's whole output.
	Partial     bool       `json:"partial,omitempty"`
	Stream      string     `json:"stream,omitempty"`
	Error       string     `json:"error,omitempty"`
	StartedAt   *time.Time `json:"started_at,omitempty"`
	CompletedAt *time.Time `json:"completed_at,omitempty"`
	// The tool call's fields: id of its activity record, tool, variant (the effective one),
	// decision (allow, warn, refuse), outcome, duration and the loop iteration it ran in.
	CallID     string   `json:"call_id,omitempty"`
	Tool       string   `json:"tool,omitempty"`
	Variant    string   `json:"variant,omitempty"`
	Decision   string   `json:"decision,omitempty"`
	Outcome    string   `json:"outcome,omitempty"`
	DurationMS *float64 `json:"duration_ms,omitempty"`
	Iteration  *int     `json:"iteration,omitempty"`
}

// Sources are what a follower reads: the run's record and its tool calls.
type Sources struct {
	Runs ports.RunStore
	// Activity reads run id's activity records.
	Activity func(runID string) ports.ActivitySource
	// Terminal says whether a state of the run's workflow is a terminal (which starts no
	// step); nil treats every state the record names as current as a step.
	Terminal func(rec runrecord.Record, state string) bool
	// Redactor masks outputs and errors (with each run's kept mask set added); nil masks nothing
	// beyond what the records already mask.
	Redactor *redact.Redactor
	// Every is the polling interval (200 ms when 0, as the reference's).
	Every time.Duration
}

// Follow sends run id's events to emit until the run ends or ctx does: first what already
// happened, then what happens, read from the record and the activity file every interval.
// A run that ended is replayed whole and closed with its workflow event.
func (src Sources) Follow(ctx context.Context, id string, emit func(Event)) error {
	rec, err := src.Runs.Load(id)
	if err != nil {
		return err
	}
	every := src.Every
	if every == 0 {
		every = 200 * time.Millisecond
	}
	t := &Tracker{ID: id, Terminal: src.Terminal, Now: time.Now}
	masked := -1
	for {
		if len(rec.Masked) != masked && src.Redactor != nil {
			src.Redactor.AddMasks(rec.Masked...)
			masked = len(rec.Masked)
		}
		var calls []activity.Record
		if src.Activity != nil {
			calls, _ = src.Activity(id).List(ctx, activity.Filter{RunID: id})
		}
		for _, e := range t.Next(rec, calls, src.Runs.Alive) {
			emit(src.mask(e))
		}
		if t.Ended() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
		if next, err := src.Runs.Load(id); err == nil {
			rec = next
		}
	}
}

func (src Sources) mask(e Event) Event {
	if src.Redactor != nil {
		e.Output, e.Error = src.Redactor.String(e.Output), src.Redactor.String(e.Error)
	}
	return e
}

// Tracker turns successive snapshots of a run (its record and its activity records) into the
// events between them. It is pure, so the order of events can be tested without files.
type Tracker struct {
	ID       string
	Terminal func(rec runrecord.Record, state string) bool
	Now      func() time.Time

	steps, calls int
	open         string // the main-flow step started and not finished
	ended        bool
}

// Ended says the workflow event was sent: the stream is over.
func (t *Tracker) Ended() bool { return t.ended }

// Next returns the events that rec and calls add to what the tracker saw before: tool calls
// first (they happened inside the steps that follow), then finished steps (each started before
// it, if its start was not seen), the step now running, and the workflow's end.
func (t *Tracker) Next(rec runrecord.Record, calls []activity.Record, alive func(int) bool) []Event {
	var out []Event
	now := t.Now()
	for ; t.calls < len(calls); t.calls++ {
		out = append(out, t.call(calls[t.calls]))
	}
	for ; t.steps < len(rec.Steps); t.steps++ {
		out = t.finished(out, rec.Steps[t.steps], now)
	}
	status := rec.Effective(alive)
	if status == runrecord.Running && rec.Current != "" && t.open != rec.Current && !t.isTerminal(rec, rec.Current) {
		t.open = rec.Current
		out = append(out, Event{Type: StepStarted, ExecutionID: t.ID, StepName: rec.Current, Status: "running", StartedAt: &now})
	}
	if status != runrecord.Running {
		t.ended = true
		end := rec.Ended
		if end.IsZero() {
			end = rec.Updated
		}
		e := Event{Type: WorkflowCompleted, ExecutionID: t.ID, WorkflowName: rec.Workflow, Status: APIStatus(status), CompletedAt: &end}
		if status != runrecord.Succeeded {
			e.Type, e.Error = WorkflowFailed, rec.Error
		}
		out = append(out, e)
	}
	return out
}

// finished appends the events of one recorded step.
func (t *Tracker) finished(out []Event, st runrecord.Step, now time.Time) []Event {
	started := now.Add(-time.Duration(st.DurationMS) * time.Millisecond)
	if st.Within != "" || t.open != st.Name {
		out = append(out, Event{Type: StepStarted, ExecutionID: t.ID, StepName: st.Name, Within: st.Within, Status: "running", StartedAt: &started})
	}
	if st.Within == "" && t.open == st.Name {
		t.open = ""
	}
	if st.Output != "" {
		out = append(out, Event{Type: Output, ExecutionID: t.ID, StepName: st.Name, Within: st.Within, Output: st.Output})
	}
	e := Event{Type: StepCompleted, ExecutionID: t.ID, StepName: st.Name, Within: st.Within, Status: "completed", Output: st.Output, CompletedAt: &now}
	if st.Status != "success" {
		e.Type, e.Status, e.Output, e.Error = StepFailed, "failed", "", st.Error
	}
	return append(out, e)
}

func (t *Tracker) isTerminal(rec runrecord.Record, state string) bool {
	return t.Terminal != nil && t.Terminal(rec, state)
}

// call is the tool.call event of one activity record.
func (t *Tracker) call(r activity.Record) Event {
	d := r.DurationMS
	at := r.Time
	step, iter := splitIteration(r.Step)
	return Event{Type: ToolCall, ExecutionID: t.ID, StepName: step, CallID: r.ID, Tool: r.Tool, Variant: string(r.Effective()),
		Decision: r.Intent.Decision, Outcome: string(r.Outcome), Error: r.Error, DurationMS: &d, Iteration: iter, StartedAt: &at}
}

// splitIteration reads "review[2]" as step review, iteration 2; a step without brackets has no
// iteration.
func splitIteration(step string) (string, *int) {
	i := strings.LastIndexByte(step, '[')
	if i < 0 || !strings.HasSuffix(step, "]") {
		return step, nil
	}
	n, err := strconv.Atoi(step[i+1 : len(step)-1])
	if err != nil {
		return step, nil
	}
	return step[:i], &n
}

// APIStatus is a record's effective status in the reference's words: running, completed,
// failed, cancelled (an interrupted run).
func APIStatus(status string) string {
	switch status {
	case runrecord.Succeeded:
		return "completed"
	case runrecord.Interrupted:
		return "cancelled"
	case runrecord.Running:
		return "running"
	default:
		return "failed"
	}
}
