// Package cireport turns one finished run into what a CI system shows: a job summary (steps with
// status and duration, tool calls by intent, refusals, sandbox denials), annotations pointing at
// the workflow file's lines, and SARIF 2.1.0 for code scanning. It reads nothing itself: cmd/awf
// hands it the run's record, its activity records and the loaded workflow (docs/guide/ci.md).
package cireport

import (
	"sort"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Input is one run as read back.
type Input struct {
	Run   runrecord.Record
	Calls []activity.Record
	// Workflow is the run's workflow as loaded now, for the lines findings point at; nil leaves
	// them at the file.
	Workflow *workflow.Workflow
	// File is the workflow file as the CI system names it (relative to the repository root).
	File string
	// ReportPath is the run's HTML report, "" when none was written.
	ReportPath string
}

// Step is one finished state of the main flow.
type Step struct {
	Name       string `json:"name"`
	Status     string `json:"status"`
	DurationMS int64  `json:"duration_ms"`
	Attempts   int    `json:"attempts,omitempty"`
}

// Finding is a refusal or a sandbox denial, with where in the workflow file it came from.
type Finding struct {
	Kind    string         `json:"kind"`
	Step    string         `json:"step"`
	Tool    string         `json:"tool"`
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Pos     fault.Position `json:"position"`
}

// Finding kinds.
const (
	KindRefusal = "refusal"
	KindSandbox = "sandbox_denial"
)

// Summary is the run as CI shows it; its JSON is the action's summary-json output.
type Summary struct {
	RunID      string         `json:"run_id"`
	Workflow   string         `json:"workflow"`
	File       string         `json:"file,omitempty"`
	Status     string         `json:"status"`
	DurationMS int64          `json:"duration_ms"`
	Error      string         `json:"error,omitempty"`
	Steps      []Step         `json:"steps"`
	ToolCalls  int            `json:"tool_calls"`
	ByIntent   map[string]int `json:"tool_calls_by_intent"`
	Findings   []Finding      `json:"findings"`
	ReportPath string         `json:"report_path,omitempty"`
}

// Summarize builds the summary of in. status is the run's effective status (a record still
// saying running whose process is gone is crashed), which the caller knows.
func Summarize(in Input, status string) Summary {
	s := Summary{RunID: in.Run.ID, Workflow: in.Run.Workflow, File: in.File, Status: status,
		DurationMS: in.Run.Duration().Milliseconds(), Error: in.Run.Error, ReportPath: in.ReportPath,
		Steps: []Step{}, ByIntent: map[string]int{}, Findings: []Finding{}}
	for _, st := range in.Run.Main() {
		s.Steps = append(s.Steps, Step{Name: st.Name, Status: st.Status, DurationMS: st.DurationMS, Attempts: st.Attempts})
	}
	calls := append([]activity.Record(nil), in.Calls...)
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].Time.Before(calls[j].Time) })
	for _, c := range calls {
		s.ToolCalls++
		intent := string(c.Effective())
		if intent == "" {
			intent = "unknown"
		}
		s.ByIntent[intent]++
		if f, ok := findingOf(c, in); ok {
			s.Findings = append(s.Findings, f)
		}
	}
	return s
}

// findingOf says whether call c is a refusal or a sandbox denial, and which.
func findingOf(c activity.Record, in Input) (Finding, bool) {
	f := Finding{Step: c.Step, Tool: c.Tool, Code: c.Code, Message: c.Error, Pos: position(in, c.Step)}
	switch {
	case c.Outcome == activity.OutcomeRefused:
		f.Kind = KindRefusal
	case sandboxDenied(c):
		f.Kind, f.Code = KindSandbox, fault.UserSandboxDenied
	default:
		return Finding{}, false
	}
	if f.Message == "" {
		f.Message = f.Code
	}
	return f, true
}

// sandboxDenied: a confined Bash call the kernel refused something to (the sandbox adds its code
// to the call's error, bash_sandbox.go's deniedNote).
func sandboxDenied(c activity.Record) bool {
	return c.Sandbox != nil && c.Sandbox.Enforced && (c.Code == fault.UserSandboxDenied || strings.Contains(c.Error, fault.UserSandboxDenied))
}

// position is where a step is in the workflow file: the state's name for a state of the main
// flow, the enclosing state's for a loop or parallel sub-step ("review/3/lint" is under review).
func position(in Input, step string) fault.Position {
	pos := fault.Position{File: in.File}
	if in.Workflow == nil {
		return pos
	}
	name := step
	if i := strings.IndexAny(name, "/[."); i > 0 {
		if _, ok := in.Workflow.States[name]; !ok {
			name = name[:i]
		}
	}
	if st, ok := in.Workflow.States[name]; ok && st.Pos.Line > 0 {
		pos.Line, pos.Column = st.Pos.Line, st.Pos.Column
	}
	return pos
}

// Duration formats milliseconds for people: 850ms, 12.3s, 4m5s.
func Duration(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	switch {
	case d < time.Second:
		return d.String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	default:
		return d.Round(time.Second).String()
	}
}

// intentOrder lists intents from least to most powerful, then any other.
var intentOrder = []string{string(tool.VariantRead), string(tool.VariantWrite), string(tool.VariantDestructive), "unknown"}
