package run

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// executorFunc lets a test write an executor inline.
type executorFunc func(ctx context.Context, st *workflow.State, scope Scope) (Outcome, error)

func (f executorFunc) Execute(ctx context.Context, st *workflow.State, scope Scope, _ Steps) (Outcome, error) {
	return f(ctx, st, scope)
}

func TestConstruction(t *testing.T) {
	ok := executorFunc(func(context.Context, *workflow.State, Scope) (Outcome, error) { return Outcome{}, nil })
	tests := []struct {
		name     string
		opts     Options
		kinds    []workflow.StateType
		wantCode string
		wantMsg  string
	}{
		{"every domain kind has an executor", Options{Environ: []string{}}, workflow.Kinds(), "", ""},
		{"a kind without an executor is refused", Options{Environ: []string{}}, append(workflow.Kinds(), "plugin_step"),
			fault.SystemRunNoExecutor, "no executor for plugin_step states"},
		{"an executor given for the new kind makes it whole", Options{Environ: []string{}, Executors: map[workflow.StateType]Executor{"plugin_step": ok}},
			append(workflow.Kinds(), "plugin_step"), "", ""},
		{"removing a built-in executor is refused", Options{Environ: []string{}, Executors: map[workflow.StateType]Executor{workflow.StateAgent: nil}},
			workflow.Kinds(), fault.SystemRunNoExecutor, "no executor for agent states"},
		{"the environment is required", Options{}, workflow.Kinds(), fault.SystemRunSetup, "Options.Environ"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := newRunner(tc.opts, tc.kinds)
			if fault.CodeOf(err) != tc.wantCode || (err == nil) != (r != nil) {
				t.Fatalf("runner %v err %v, want code %q", r, err, tc.wantCode)
			}
			if tc.wantMsg != "" && !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("error %q lacks %q", err, tc.wantMsg)
			}
		})
	}
	if _, err := New(Options{}); fault.CodeOf(err) != fault.SystemRunSetup {
		t.Errorf("New without Environ: %v", err)
	}
}

func TestDefaults(t *testing.T) {
	r := newRun(t, Options{})
	if r.opts.MaxSteps != DefaultMaxSteps || r.opts.Logger == nil || r.opts.Tracer == nil || r.opts.Observer == nil {
		t.Errorf("defaults not filled: %+v", r.opts)
	}
	if r.sched.maxSteps != DefaultMaxSteps {
		t.Errorf("scheduler step limit %d", r.sched.maxSteps)
	}
}

func TestEventsInOrder(t *testing.T) {
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"a": {Stdout: "A"}, "b": {ExitCode: 1}}}
	rec := &recorder{}
	res, err := newRun(t, Options{Commands: sh, RunID: "r9", Observer: rec}).
		Run(context.Background(), flow(cmdState("a", "a", "b", "bad"), cmdState("b", "b", "done", "done")), one)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range rec.events {
		switch e := e.(type) {
		case RunStarted:
			kinds = append(kinds, "run:"+e.RunID+":"+e.Workflow)
		case StepStarted:
			kinds = append(kinds, "start:"+e.Name+":"+e.Kind)
		case StepFinished:
			kinds = append(kinds, "finish:"+e.Step.Name+":"+string(e.Step.Status)+":"+e.Step.Next)
		case RunFinished:
			kinds = append(kinds, "end:"+e.Status+":"+e.Terminal)
		}
	}
	want := []string{"run:r9:t", "start:a:command", "finish:a:success:b", "start:b:command", "finish:b:failure:done", "end:success:done"}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("events %v\nwant   %v", kinds, want)
	}
	// The Result is what the events say.
	if res.Steps[0].Output != "A" || res.Steps[1].Error != "exit code 1" || rec.events[5].(RunFinished).Duration != res.Duration {
		t.Errorf("result %+v", res)
	}
}

func TestInputErrorEvents(t *testing.T) {
	rec := &recorder{}
	res, err := newRun(t, Options{RunID: "r", Observer: rec}).Run(context.Background(), flow(cmdState("a", "x", "done", "bad")), nil)
	if len(rec.events) != 2 || res.Status != RunError || res.Duration != 0 {
		t.Fatalf("events %#v res %+v", rec.events, res)
	}
	if fin := rec.events[1].(RunFinished); fin.Err != err || fin.Status != RunError {
		t.Errorf("finish %#v err %v", fin, err)
	}
}

func TestExecutorErrorsAreSorted(t *testing.T) {
	workflowErr := fault.New(fault.UserTemplateExec, "bad template")
	tests := []struct {
		name       string
		out        Outcome
		err        error
		wantCode   string // of the run
		wantStep   string // the step's error
		wantStatus StepStatus
		wantExit   int
	}{
		{"a stop error stops the run with the error itself", Outcome{}, Stop(workflowErr), fault.UserTemplateExec, workflowErr.Error(), StepFailure, 0},
		{"a work error fails the step and follows on_failure", Outcome{ExitCode: 0}, errors.New("endpoint down"), fault.WorkflowRunFailed, "endpoint down", StepFailure, -1},
		{"a work error keeps a real exit code", Outcome{ExitCode: 9}, errors.New("killed"), fault.WorkflowRunFailed, "killed", StepFailure, 9},
		{"a coded execution error also only fails the step", Outcome{}, fault.New(fault.ExecutionAgentBadOutput, "cli said no"), fault.WorkflowRunFailed, "[EXECUTION.AGENT.BAD_OUTPUT] cli said no", StepFailure, -1},
		{"a failed outcome without error follows on_failure", Outcome{Status: StepFailure, ExitCode: 4, Error: "nope"}, nil, fault.WorkflowRunFailed, "nope", StepFailure, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := executorFunc(func(context.Context, *workflow.State, Scope) (Outcome, error) { return tc.out, tc.err })
			res, err := newRun(t, Options{Executors: map[workflow.StateType]Executor{workflow.StateCommand: x}}).
				Run(context.Background(), flow(cmdState("a", "x", "done", "bad")), one)
			if fault.CodeOf(err) != tc.wantCode {
				t.Fatalf("code %q, want %q (%v)", fault.CodeOf(err), tc.wantCode, err)
			}
			if tc.wantCode == fault.UserTemplateExec && err != workflowErr {
				t.Errorf("the run's error is %v, want the executor's own", err)
			}
			st := res.Steps[0]
			if st.Error != tc.wantStep || st.Status != tc.wantStatus || st.ExitCode != tc.wantExit {
				t.Errorf("step %+v", st)
			}
		})
	}
}

func TestStopUnwraps(t *testing.T) {
	inner := fault.New(fault.UserTemplateExec, "x")
	err := Stop(inner)
	if err.Error() != inner.Error() || !errors.Is(err, inner) || fault.CodeOf(err) != fault.UserTemplateExec {
		t.Errorf("Stop(%v) = %v", inner, err)
	}
	if got, ok := stopped(errors.New("plain")); ok || got != nil {
		t.Errorf("a plain error is not a stop: %v %v", got, ok)
	}
}

func TestTerminalExecutor(t *testing.T) {
	tests := []struct {
		name    string
		spec    workflow.Spec
		wantEnd End
	}{
		{"success", &workflow.TerminalSpec{Status: workflow.StatusSuccess, Message: "ignored {{.x}}"}, End{}},
		{"no status reads as success", nil, End{}},
		{"failure with message", &workflow.TerminalSpec{Status: workflow.StatusFailure, Message: "n={{.inputs.n}}"}, End{Failed: true, Message: "n=1"}},
		{"failure with a message that does not render", &workflow.TerminalSpec{Status: workflow.StatusFailure, Message: "{{.states.none.Output}}"}, End{Failed: true}},
	}
	scope := NewScope(map[string]any{"n": 1}, nil, WorkflowInfo{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := terminalExecutor{}.Execute(context.Background(), &workflow.State{Name: "end", Type: workflow.StateTerminal, Spec: tc.spec}, scope, nil)
			if end, ok := out.Then.Ends(); err != nil || !ok || end != tc.wantEnd {
				t.Fatalf("outcome %+v err %v", out, err)
			}
		})
	}
}

func TestTerminalExecutorMustEnd(t *testing.T) {
	tests := []struct {
		name string
		x    executorFunc
		code string
	}{
		{"no End", func(context.Context, *workflow.State, Scope) (Outcome, error) { return Outcome{}, nil }, fault.SystemInternalUnexpected},
		{"an error", func(context.Context, *workflow.State, Scope) (Outcome, error) {
			return Outcome{Then: EndRun(End{})}, fault.New(fault.SystemRunSetup, "x")
		}, fault.SystemRunSetup},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"x": {}}}
			res, err := newRun(t, Options{Commands: sh, Executors: map[workflow.StateType]Executor{workflow.StateTerminal: tc.x}}).
				Run(context.Background(), flow(cmdState("a", "x", "done", "bad")), one)
			if fault.CodeOf(err) != tc.code || res.Status != RunError || res.Terminal != "" {
				t.Fatalf("err %v res %+v", err, res)
			}
		})
	}
}
