package run

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/retry"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// fakeSource serves workflows by name; the file of each is "<name>.yaml" unless set.
type fakeSource struct {
	wfs   map[string]*workflow.Workflow
	diags map[string]fault.Diagnostics
	froms []string
}

func (f *fakeSource) Callee(from, name string) (*workflow.Workflow, fault.Diagnostics, error) {
	f.froms = append(f.froms, from+">"+name)
	wf, ok := f.wfs[name]
	if !ok {
		return nil, nil, fault.New(fault.UserWorkflowNotFound, "workflow %q not found", name)
	}
	return wf, f.diags[name], nil
}

func terminal(name string, status workflow.TerminalStatus) *workflow.State {
	return &workflow.State{Name: name, Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: status}}
}

// machine builds a workflow from states, the first being initial, with ok/ko terminals.
func machine(name string, inputs []workflow.Input, states ...*workflow.State) *workflow.Workflow {
	wf := &workflow.Workflow{Name: name, File: name + ".yaml", Initial: states[0].Name, States: map[string]*workflow.State{}, Inputs: inputs}
	for _, s := range append(states, terminal("ok", workflow.StatusSuccess), terminal("ko", workflow.StatusFailure)) {
		wf.States[s.Name] = s
		wf.Order = append(wf.Order, s.Name)
	}
	return wf
}

func callState(name, target string, inputs, outputs map[string]string, ok, fail string) *workflow.State {
	spec := &workflow.CallSpec{Workflow: target, Inputs: inputs, Outputs: outputs}
	for k := range inputs {
		spec.InputOrder = append(spec.InputOrder, k)
	}
	for k := range outputs {
		spec.OutputOrder = append(spec.OutputOrder, k)
	}
	return &workflow.State{Name: name, Type: workflow.StateCallWorkflow, Spec: spec, OnSuccess: ok, OnFailure: fail}
}

func names(events []Event) []string {
	var out []string
	for _, e := range events {
		switch e := e.(type) {
		case StepStarted:
			out = append(out, "start:"+e.Name)
		case StepFinished:
			out = append(out, "finish:"+e.Step.Name+":"+string(e.Step.Status)+">"+e.Step.Next)
		}
	}
	return out
}

func childWorkflow() *workflow.Workflow {
	child := machine("child", []workflow.Input{{Name: "msg", Type: workflow.InputString, Required: true}, {Name: "count", Type: workflow.InputInteger, Default: int64(1)}},
		cmdState("work", "echo {{.inputs.msg}} {{.inputs.count}}", "last", "ko"),
		cmdState("last", "last", "ok", "ko"))
	child.Outputs = []workflow.Output{{Name: "result", From: "states.work.Output"}}
	return child
}

func TestCallRunsTheSubWorkflowNested(t *testing.T) {
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{
		"prep":                 {Stdout: "P\n"},
		"echo 'hi P' 3":        {Stdout: "worked\n"},
		"last":                 {Stdout: "final\n"},
		"show worked final su": {Stdout: "shown\n"},
	}}
	src := &fakeSource{wfs: map[string]*workflow.Workflow{"child": childWorkflow()}}
	parent := machine("parent", nil,
		cmdState("prep", "prep", "call", "ko"),
		callState("call", "child", map[string]string{"msg": "hi {{.states.prep.Output}}", "count": "3"},
			map[string]string{"result": "res", "last": "fin"}, "show", "ko"),
		cmdState("show", "show {{.states.call.Response.res}} {{.states.call.Response.fin}} {{.states.call.Status | printf \"%.2s\"}}", "ok", "ko"))
	parent.File = "/p/parent.yaml"
	rec := &recorder{}
	res, err := newRun(t, Options{Commands: sh, Workflows: src, Observer: rec}).Run(context.Background(), parent, nil)
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	want := []string{"start:prep", "finish:prep:success>call", "start:call", "start:call/work", "finish:call/work:success>call/last",
		"start:call/last", "finish:call/last:success>call/ok", "finish:call:success>show", "start:show", "finish:show:success>ok"}
	if got := names(rec.events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events\n%v\nwant\n%v", got, want)
	}
	call := res.Steps[3]
	if call.Name != "call" || call.Output != "final" || !reflect.DeepEqual(call.Response, map[string]any{"res": "worked", "fin": "final"}) {
		t.Errorf("call result %+v", call)
	}
	if !reflect.DeepEqual(src.froms, []string{"/p/parent.yaml>child"}) {
		t.Errorf("the callee is looked up from the caller's file: %v", src.froms)
	}
}

func TestCallOutcomes(t *testing.T) {
	failing := machine("failing", nil, cmdState("boom", "boom", "ok", "ko"))
	blocking := machine("blocking", nil, cmdState("wait", "wait", "ok", "ko"))
	broken := machine("broken", nil, cmdState("bad", "echo {{.states.prep.Output}}", "ok", "ko"))
	diag := machine("diag", nil, cmdState("x", "x", "ok", "ko"))
	unmapped := machine("unmapped", nil, cmdState("x", "x", "ok", "ko"))
	tests := []struct {
		name     string
		call     *workflow.State
		timeout  time.Duration
		block    bool
		wantErr  string // a code that stops the run
		wantNext string
		wantMsg  string
	}{
		{"a failure terminal fails the call", callState("call", "failing", nil, nil, "ok", "ko"), 0, false, "", "ko", `workflow "failing" failed`},
		{"inputs that do not fit fail the call", callState("call", "child", map[string]string{"msg": "m", "count": "many"}, nil, "ok", "ko"), 0, false, "", "ko", `input "count" must be an integer`},
		{"a missing required input fails the call", callState("call", "child", nil, nil, "ok", "ko"), 0, false, "", "ko", `required input "msg"`},
		{"an unknown input fails the call", callState("call", "child", map[string]string{"msg": "m", "cuont": "1"}, nil, "ok", "ko"), 0, false, "", "ko", `unknown input "cuont"`},
		{"the sub-workflow does not see the caller's states", callState("call", "broken", nil, nil, "ok", "ko"), 0, false, fault.UserTemplateExec, "", ""},
		{"a workflow that cannot be found stops the run", callState("call", "nowhere", nil, nil, "ok", "ko"), 0, false, fault.ExecutionCallLoad, "", ""},
		{"an invalid callee stops the run", callState("call", "diag", nil, nil, "ok", "ko"), 0, false, fault.UserCallInvalidCallee, "", ""},
		{"the call's timeout ends the sub-workflow", callState("call", "blocking", nil, nil, "ok", "ko"), 20 * time.Millisecond, true, "", "ko", "timed out"},
		{"an output of a state that did not run fails the call", callState("call", "unmapped", nil, map[string]string{"never": "n"}, "ok", "ko"), 0, false, "", "ko", `state "never" did not run`},
		{"a bad input template stops the run", callState("call", "child", map[string]string{"msg": "{{.nope}}"}, nil, "ok", "ko"), 0, false, fault.UserTemplateExec, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sh := &fakeShell{t: t, block: tc.block, results: map[string]ports.CommandResult{"boom": {ExitCode: 3}, "x": {}}}
			src := &fakeSource{wfs: map[string]*workflow.Workflow{"child": childWorkflow(), "failing": failing, "blocking": blocking, "broken": broken, "diag": diag, "unmapped": unmapped},
				diags: map[string]fault.Diagnostics{"diag": {{Code: fault.UserWorkflowNoExit, Message: "loops", Severity: fault.SeverityError}}}}
			tc.call.Timeout = tc.timeout
			parent := machine("parent", nil, cmdState("prep", "x", "call", "ko"), tc.call)
			if tc.block {
				parent = machine("parent", nil, tc.call) // every command blocks
			}
			res, err := newRun(t, Options{Commands: sh, Workflows: src}).Run(context.Background(), parent, nil)
			if tc.wantErr != "" {
				if fault.CodeOf(err) != tc.wantErr {
					t.Fatalf("err %v, want code %s", err, tc.wantErr)
				}
				return
			}
			step := res.Steps[len(res.Steps)-1]
			if step.Name != "call" || step.Next != tc.wantNext || step.Status != StepFailure || !strings.Contains(step.Error, tc.wantMsg) {
				t.Fatalf("call step %+v, want next %q and error with %q", step, tc.wantNext, tc.wantMsg)
			}
		})
	}
}

// chain returns workflows w0 … wn, each calling the next, the last one ending.
func chain(n int) map[string]*workflow.Workflow {
	out := map[string]*workflow.Workflow{}
	for i := 0; i < n; i++ {
		out[wname(i)] = machine(wname(i), nil, callState("down", wname(i+1), nil, nil, "ok", "ko"))
	}
	out[wname(n)] = machine(wname(n), nil, cmdState("leaf", "x", "ok", "ko"))
	return out
}

func wname(i int) string { return "w" + string(rune('a'+i)) }

func TestCallDepthLimit(t *testing.T) {
	for _, tc := range []struct {
		levels int
		ok     bool
	}{{workflow.MaxCallDepth, true}, {workflow.MaxCallDepth + 1, false}} {
		wfs := chain(tc.levels)
		sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"x": {}}}
		res, err := newRun(t, Options{Commands: sh, Workflows: &fakeSource{wfs: wfs}}).Run(context.Background(), wfs[wname(0)], nil)
		if tc.ok != (err == nil) {
			t.Fatalf("%d nested calls: err %v", tc.levels, err)
		}
		if !tc.ok {
			if fault.CodeOf(err) != fault.ExecutionCallDepth || !strings.Contains(err.Error(), "wa → wb → wc") || res.Status != RunError {
				t.Fatalf("%d nested calls: err %v, status %s", tc.levels, err, res.Status)
			}
			if len(sh.seen) != 0 {
				t.Errorf("the leaf ran beyond the limit: %v", sh.commands())
			}
		}
	}
}

func TestCallCycleAtRunTime(t *testing.T) {
	a := machine("a", nil, callState("again", "a", nil, nil, "ok", "ko"))
	_, err := newRun(t, Options{Workflows: &fakeSource{wfs: map[string]*workflow.Workflow{"a": a}}}).Run(context.Background(), a, nil)
	if fault.CodeOf(err) != fault.ExecutionCallCycle || !strings.Contains(err.Error(), "a → a") {
		t.Fatalf("err %v", err)
	}
}

func TestCallWithoutSource(t *testing.T) {
	parent := machine("parent", nil, callState("call", "child", nil, nil, "ok", "ko"))
	_, err := newRun(t, Options{}).Run(context.Background(), parent, nil)
	if fault.CodeOf(err) != fault.SystemRunSetup {
		t.Fatalf("err %v", err)
	}
	if _, err := (callExecutor{}).Execute(context.Background(), parent.States["call"], NewScope(nil, nil, WorkflowInfo{}), nil); fault.CodeOf(err) != fault.SystemRunSetup {
		t.Fatalf("outside a run: %v", err)
	}
}

func TestCallInterrupted(t *testing.T) {
	started := make(chan struct{})
	sh := &fakeShell{t: t, block: true, started: started}
	blocking := machine("blocking", nil, cmdState("wait", "wait", "ok", "ko"))
	parent := machine("parent", nil, callState("call", "blocking", nil, nil, "ok", "ko"))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	res, err := newRun(t, Options{Commands: sh, Workflows: &fakeSource{wfs: map[string]*workflow.Workflow{"blocking": blocking}}}).Run(ctx, parent, nil)
	if fault.ExitCode(err) != fault.ExitInterrupted || res.Status != RunInterrupted {
		t.Fatalf("err %v status %s", err, res.Status)
	}
}

func TestCallRelaysRetriesNested(t *testing.T) {
	flaky := cmdState("flaky", "boom", "ok", "ko")
	flaky.Retry = &retry.Policy{MaxAttempts: 2}
	child := machine("child", nil, flaky)
	rec := &recorder{}
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"boom": {ExitCode: 4}}}
	parent := machine("parent", nil, callState("call", "child", nil, nil, "ok", "ko"))
	res, err := newRun(t, Options{Commands: sh, Observer: rec, Workflows: &fakeSource{wfs: map[string]*workflow.Workflow{"child": child}},
		Wait: func(context.Context, time.Duration) error { return nil }}).Run(context.Background(), parent, nil)
	if fault.CodeOf(err) != fault.WorkflowRunFailed || res.Steps[len(res.Steps)-1].Next != "ko" {
		t.Fatalf("err %v steps %+v", err, res.Steps)
	}
	var retried []string
	for _, e := range rec.events {
		if r, ok := e.(StepRetrying); ok {
			retried = append(retried, r.Name)
		}
	}
	if strings.Join(retried, ",") != "call/flaky" || len(sh.seen) != 2 {
		t.Fatalf("retries %v, commands %v", retried, sh.commands())
	}
}

// TestCalleeSeesTheHostButNotTheCallersError: a sub-workflow reads .context and .awf like its
// caller, and the caller's current state and .error stay the caller's.
func TestCalleeSeesTheHostButNotTheCallersError(t *testing.T) {
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{
		"false":           {ExitCode: 1},
		"echo ann /c - l": {Stdout: "seen\n"},
	}}
	child := machine("child", nil, cmdState("look", "echo {{.context.user}} {{.awf.config_dir}} -{{.error.state}} {{.workflow.current_state | printf \"%.1s\"}}", "ok", "ko"))
	src := &fakeSource{wfs: map[string]*workflow.Workflow{"child": child}}
	parent := machine("parent", nil,
		cmdState("fail", "false", "ko", "call"),
		callState("call", "child", nil, nil, "ok", "ko"))
	host := Host{AWF: map[string]string{"config_dir": "/c"}, User: "ann"}
	res, err := newRun(t, Options{Commands: sh, Workflows: src, Host: host}).Run(context.Background(), parent, nil)
	if err != nil || res.Terminal != "ok" {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	if got := sh.commands(); len(got) != 2 || got[1] != "echo ann /c - l" {
		t.Errorf("commands %q", got)
	}
}
