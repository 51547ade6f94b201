// Package report assembles the view of one finished (or stopped) run for `awf report` and
// `awf run --report`: a header, a timeline of steps and tool calls, the table of every call, the
// workflow's graph with the path the run took, and per-step summaries. It takes the run's own
// records as domain values and returns a view model; reading the files and writing HTML are the
// infrastructure's business, so everything here is plain data and can be tested as such.
//
// Every string that reaches the view has been through the run's redactor and had its control
// characters made visible: a report is a file people attach to CI runs and send around.
package report

import (
	"time"

	"github.com/awf-dev/awf/internal/application/diagram"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Input is everything a report is made from: the run's records as read from .awf/runs/<id>/.
type Input struct {
	Record runrecord.Record
	// Calls are the run's activity records (activity.jsonl), in file order.
	Calls []activity.Record
	// Log holds the run.log lines the report uses (step ends, model requests); nil when the log
	// is missing, and the timeline then places steps one after another from their durations.
	Log []LogLine
	// Workflow is the workflow as the run loaded it (the record's copy of the file); nil when
	// that copy is missing or no longer parses, and the report then has no diagram.
	Workflow *workflow.Workflow
	// Redactor masks secrets in everything shown; nil masks nothing.
	Redactor *redact.Redactor
	// Alive tells a crashed run (still marked running, its process gone) from a running one;
	// nil shows the recorded status as it is.
	Alive func(pid int) bool
}

// LogLine is the part of one run.log line a report reads. Within-fields say where a sub-step
// ran: Loop and LoopIndex for an iteration, Parallel for a branch, Call for a sub-workflow.
type LogLine struct {
	Time      time.Time
	Msg       string
	Step      string
	Loop      string
	LoopIndex int
	Parallel  string
	Call      string
	Duration  time.Duration
	// Tokens and cost of one model request, as the provider reported them.
	PromptTokens     int
	CompletionTokens int
	CostUSD          float64
}

// Log messages the report reads (written by the scheduler and the HTTP agent provider).
const (
	MsgStepSucceeded = "step succeeded"
	MsgStepFailed    = "step failed"
	MsgStepStopped   = "step stopped the run"
	MsgModelRequest  = "model request"
)

// View is the report as the renderer draws it.
type View struct {
	Header Header
	// Lanes are the timeline's rows: one per step, loop iteration and parallel branch, in the
	// order they started.
	Lanes []Lane
	Calls []Call
	Steps []StepSummary
	// Graph is the workflow with the states the run went through highlighted; nil without a
	// workflow.
	Graph *diagram.Graph
	// Path lists the main-flow states in the order the run went through them.
	Path []string
	// Filters are the distinct values the table can be filtered by.
	Filters Filters
	// Totals count the calls by outcome.
	Totals Totals
	// Span is the time the timeline covers.
	Span time.Duration
}

// Totals count tool calls by outcome.
type Totals struct {
	Calls, Succeeded, Refused, Errors int
	// Connections counts the network records (connections through a step's egress proxy),
	// which are rows and marks too but not tool calls.
	Connections int
}

// Filters list the values present in the run for each filterable column, sorted.
type Filters struct {
	Steps, Tools, Variants, Outcomes []string
}

// Build assembles the view of a run.
func Build(in Input) View {
	t := newText(in.Redactor)
	t.addWorkflowSecrets(in.Workflow, in.Record.Inputs, in.Record.Masked)
	v := View{Header: header(in, t)}
	tl := newTimeline(in)
	v.Lanes = tl.lanes(t)
	v.Calls, v.Totals = calls(in.Calls, tl, t)
	tl.marks(v.Lanes, v.Calls)
	v.Filters = filtersOf(v.Calls)
	v.Steps = summaries(in, tl, v.Lanes, t)
	v.Span = tl.span()
	v.Path = path(in.Record)
	if in.Workflow != nil {
		v.Graph = graph(in.Workflow, in.Record)
	}
	return v
}
