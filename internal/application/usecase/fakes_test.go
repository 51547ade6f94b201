package usecase

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// validator answers with a fixed report or error and remembers what it was asked.
type validator struct {
	rep    validate.Report
	err    error
	target string
}

func (v *validator) Validate(_ context.Context, target string) (validate.Report, error) {
	v.target = target
	return v.rep, v.err
}

// The workflows of these tests are built in one place, so a change to workflow.State's shape
// touches only these helpers.

// agentState is an agent step with an in-process proxy whose model key is in MY_KEY.
func agentState() *workflow.State {
	return &workflow.State{
		Name: "ask", Type: workflow.StateAgent,
		Spec: &workflow.AgentSpec{Provider: "fake", Prompt: "hi",
			Options: map[string]any{"api_key_env": "MY_KEY"},
			MCPProxy: &workflow.MCPProxy{Enable: true, InterceptBuiltins: true,
				Intent:      workflow.IntentSettings{Split: false, Allow: []tool.Variant{tool.VariantRead}, StrictServerValidation: true},
				PluginTools: []workflow.PluginTools{{Plugin: "notes", Expose: []string{"get"}}}}},
		OnSuccess: "done", OnFailure: "failed",
	}
}

// flow is a workflow: initial → done (success) or failed (failure), with one integer input.
func flow(initial *workflow.State) *workflow.Workflow {
	states := map[string]*workflow.State{
		"done":   {Name: "done", Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusSuccess}},
		"failed": {Name: "failed", Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusFailure}},
	}
	order := []string{"done", "failed"}
	if initial != nil {
		states[initial.Name] = initial
		order = append([]string{initial.Name}, order...)
	}
	name := "done"
	if initial != nil {
		name = initial.Name
	}
	return &workflow.Workflow{Name: "flow", Initial: name, States: states, Order: order,
		Inputs: []workflow.Input{{Name: "count", Type: workflow.InputInteger, Default: int64(1)}}}
}

// provider serves Read (read-only) and Bash (destructive).
type provider struct{}

func (provider) ListTools(context.Context) ([]tool.Definition, error) {
	schema := json.RawMessage(`{"type":"object"}`)
	return []tool.Definition{
		{Name: "Read", InputSchema: schema, Annotations: tool.Annotations{ReadOnlyHint: tool.Bool(true)}, Source: tool.BuiltinSource},
		{Name: "Bash", InputSchema: schema, Annotations: tool.Annotations{DestructiveHint: tool.Bool(true)}, Source: tool.BuiltinSource},
	}, nil
}

func (provider) CallTool(_ context.Context, name string, args json.RawMessage) (tool.Result, error) {
	return tool.Text("called " + name + " " + string(args)), nil
}

func (provider) Close() error { return nil }

// agent is an agent provider that calls Read through its in-process tools.
type agent struct{ req ports.AgentRequest }

func (a *agent) Name() string { return "fake" }

func (a *agent) Run(ctx context.Context, req ports.AgentRequest) (ports.AgentResult, error) {
	a.req = req
	if req.Tools == nil {
		return ports.AgentResult{}, errors.New("no tools")
	}
	return ports.AgentResult{Output: req.Tools.CallTool(ctx, "Read", json.RawMessage(`{}`)).JoinedText()}, nil
}

// view records what a run showed.
type view struct {
	events   []string
	warnings fault.Diagnostics
	invalid  *validate.Report
	inputs   fault.Diagnostics
	res      *run.Result
	err      error
	runDir   string
}

func (v *view) Warnings(ds fault.Diagnostics) {
	v.events = append(v.events, "warnings")
	v.warnings = ds
}
func (v *view) Invalid(rep validate.Report) { v.events = append(v.events, "invalid"); v.invalid = &rep }
func (v *view) InputProblems(ds fault.Diagnostics) {
	v.events = append(v.events, "inputs")
	v.inputs = ds
}
func (v *view) Started(wf, runID string) run.Observer {
	v.events = append(v.events, "started "+wf+" "+runID)
	return run.NopObserver{}
}
func (v *view) Finished(res *run.Result, err error, runDir string) {
	v.events = append(v.events, "finished")
	v.res, v.err, v.runDir = res, err, runDir
}

// files is an in-memory ports.PrivateFiles.
type files struct {
	made, removed []string
	fail          error
}

func (f *files) MakeDir(parent, prefix string) (string, error) {
	if f.fail != nil {
		return "", f.fail
	}
	d := parent + "/" + prefix + "1"
	f.made = append(f.made, d)
	return d, nil
}
func (f *files) WriteFile(string, []byte) error { return nil }
func (f *files) RemoveAll(p string) error       { f.removed = append(f.removed, p); return nil }

type env []string

func (e env) Environ() []string { return e }

type noProcs struct{}

func (noProcs) Alive(int) bool                      { return false }
func (noProcs) Terminate(int) error                 { return nil }
func (noProcs) Kill(int) error                      { return nil }
func (noProcs) WaitExit(context.Context, int) error { return nil }

type noHandoff struct{}

func (noHandoff) WriteSpec(string, toolset.Spec) error { return errors.New("not here") }
func (noHandoff) ReadReady(context.Context, string) (toolset.Ready, error) {
	return toolset.Ready{}, errors.New("not here")
}

// records is an activity source with one Read call of step ask.
type records struct{}

func (r records) List(_ context.Context, f activity.Filter) ([]activity.Record, error) {
	return []activity.Record{{RunID: f.RunID, Step: "ask", Tool: "Read", Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: "read"}}}, nil
}
