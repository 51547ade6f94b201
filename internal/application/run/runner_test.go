package run

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// fakeShell answers commands from a table; a command missing from it fails the test.
type fakeShell struct {
	t       *testing.T
	results map[string]ports.CommandResult
	seen    []string
	block   bool // wait for ctx instead of answering
}

func (f *fakeShell) RunCommand(ctx context.Context, req ports.CommandRequest) (ports.CommandResult, error) {
	f.seen = append(f.seen, req.Command)
	if f.block {
		<-ctx.Done()
		return ports.CommandResult{ExitCode: -1}, context.Cause(ctx)
	}
	r, ok := f.results[req.Command]
	if !ok {
		f.t.Fatalf("unexpected command %q", req.Command)
	}
	return r, nil
}

type fakeAgent struct {
	out ports.AgentResult
	err error
	got ports.AgentRequest
}

func (a *fakeAgent) Name() string { return "claude" }
func (a *fakeAgent) Run(_ context.Context, req ports.AgentRequest) (ports.AgentResult, error) {
	a.got = req
	return a.out, a.err
}

func state(name string, typ workflow.StateType, cmd, ok, fail string) *workflow.State {
	return &workflow.State{Name: name, Type: typ, Command: cmd, OnSuccess: ok, OnFailure: fail}
}

func flow(states ...*workflow.State) *workflow.Workflow {
	wf := &workflow.Workflow{Name: "t", Initial: states[0].Name, States: map[string]*workflow.State{}}
	for _, s := range states {
		wf.States[s.Name] = s
		wf.Order = append(wf.Order, s.Name)
	}
	wf.States["done"] = &workflow.State{Name: "done", Type: workflow.StateTerminal, Status: workflow.StatusSuccess}
	wf.States["bad"] = &workflow.State{Name: "bad", Type: workflow.StateTerminal, Status: workflow.StatusFailure, Message: "because {{.states.a.Stderr}}"}
	wf.Inputs = []workflow.Input{
		{Name: "n", Type: workflow.InputInteger, Required: true},
		{Name: "flag", Type: workflow.InputBoolean, Default: true},
		{Name: "who", Type: workflow.InputString},
	}
	return wf
}

func TestRunner(t *testing.T) {
	tests := []struct {
		name      string
		wf        *workflow.Workflow
		inputs    map[string]string
		results   map[string]ports.CommandResult
		wantCode  string
		wantSteps []string // name:status
		wantCmds  []string
	}{
		{
			name:      "success path with typed inputs and quoting",
			wf:        flow(state("a", workflow.StateCommand, "echo {{.inputs.n}} {{.inputs.flag}} {{quote .inputs.who}}", "b", "bad"), state("b", workflow.StateCommand, "echo {{.states.a.Output}}-{{.states.a.ExitCode}}", "done", "bad")),
			inputs:    map[string]string{"n": "3", "who": "it's"},
			results:   map[string]ports.CommandResult{`echo 3 true 'it'\''s'`: {Stdout: "x\n"}, "echo x-0": {}},
			wantSteps: []string{"a:success", "b:success"},
			wantCmds:  []string{`echo 3 true 'it'\''s'`, "echo x-0"},
		},
		{
			name:      "failure follows on_failure and ends in failure terminal",
			wf:        flow(state("a", workflow.StateCommand, "false", "done", "bad")),
			inputs:    map[string]string{"n": "1"},
			results:   map[string]ports.CommandResult{"false": {ExitCode: 1, Stderr: "nope"}},
			wantCode:  fault.WorkflowRunFailed,
			wantSteps: []string{"a:failure"},
		},
		{
			name:      "failed step without on_failure fails the run",
			wf:        flow(state("a", workflow.StateCommand, "false", "done", "")),
			inputs:    map[string]string{"n": "1"},
			results:   map[string]ports.CommandResult{"false": {ExitCode: 2}},
			wantCode:  fault.WorkflowRunFailed,
			wantSteps: []string{"a:failure"},
		},
		{
			name:     "missing input runs nothing",
			wf:       flow(state("a", workflow.StateCommand, "true", "done", "bad")),
			inputs:   map[string]string{},
			wantCode: fault.UserInputMissing,
		},
		{
			name:     "ill-typed input runs nothing",
			wf:       flow(state("a", workflow.StateCommand, "true", "done", "bad")),
			inputs:   map[string]string{"n": "1", "flag": "maybe"},
			wantCode: fault.UserInputInvalidValue,
		},
		{
			name:      "reference to a state not run yet is a template error",
			wf:        flow(state("a", workflow.StateCommand, "echo {{.states.b.Output}}", "done", "bad"), state("b", workflow.StateCommand, "true", "done", "bad")),
			inputs:    map[string]string{"n": "1"},
			wantCode:  fault.UserTemplateExec,
			wantSteps: []string{"a:failure"},
		},
		{
			name: "retry loop is bounded",
			wf: func() *workflow.Workflow {
				return flow(state("a", workflow.StateCommand, "false", "done", "a"))
			}(),
			inputs:   map[string]string{"n": "1"},
			results:  map[string]ports.CommandResult{"false": {ExitCode: 1}},
			wantCode: fault.ExecutionRunMaxSteps,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sh := &fakeShell{t: t, results: tc.results}
			r := New(Options{Commands: sh, RunID: "r1", Environ: []string{"HOME=/h"}, MaxSteps: 5})
			res, err := r.Run(context.Background(), tc.wf, tc.inputs)
			if got := fault.CodeOf(err); got != tc.wantCode {
				t.Fatalf("code %q, want %q (err %v)", got, tc.wantCode, err)
			}
			if tc.wantSteps != nil {
				var got []string
				for _, s := range res.Steps {
					got = append(got, s.Name+":"+string(s.Status))
				}
				if strings.Join(got, ",") != strings.Join(tc.wantSteps, ",") {
					t.Fatalf("steps %v, want %v", got, tc.wantSteps)
				}
			}
			if tc.wantCmds != nil && strings.Join(sh.seen, "|") != strings.Join(tc.wantCmds, "|") {
				t.Fatalf("commands %q, want %q", sh.seen, tc.wantCmds)
			}
		})
	}
}

func TestFailureTerminalMessage(t *testing.T) {
	wf := flow(state("a", workflow.StateCommand, "false", "done", "bad"))
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"false": {ExitCode: 1, Stderr: "disk full"}}}
	_, err := New(Options{Commands: sh}).Run(context.Background(), wf, map[string]string{"n": "1"})
	if err == nil || !strings.Contains(err.Error(), "because disk full") || fault.ExitCode(err) != fault.ExitWorkflow {
		t.Fatalf("err %v", err)
	}
}

func TestStepTimeoutFollowsOnFailure(t *testing.T) {
	slow := state("a", workflow.StateCommand, "sleep", "done", "bad")
	slow.Timeout = 20 * time.Millisecond
	sh := &fakeShell{t: t, block: true}
	res, err := New(Options{Commands: sh}).Run(context.Background(), flow(slow), map[string]string{"n": "1"})
	if fault.CodeOf(err) != fault.WorkflowRunFailed || len(res.Steps) != 1 || !strings.Contains(res.Steps[0].Error, fault.ExecutionStepTimeout) {
		t.Fatalf("err %v steps %+v", err, res.Steps)
	}
}

func TestInterruptStopsTheRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sh := &fakeShell{t: t, block: true}
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	res, err := New(Options{Commands: sh}).Run(ctx, flow(state("a", workflow.StateCommand, "sleep", "done", "bad")), map[string]string{"n": "1"})
	if fault.ExitCode(err) != fault.ExitInterrupted || res.Status != "interrupted" {
		t.Fatalf("err %v status %s", err, res.Status)
	}
}

func TestAgentSteps(t *testing.T) {
	agentState := &workflow.State{Name: "ask", Type: workflow.StateAgent, Provider: "claude", Prompt: "sum {{.inputs.n}}", OnSuccess: "done", OnFailure: "bad", Options: map[string]any{"model": "m"}}
	t.Run("missing provider fails the step clearly", func(t *testing.T) {
		res, err := New(Options{Commands: &fakeShell{t: t}}).Run(context.Background(), flow(agentState), map[string]string{"n": "2"})
		if fault.CodeOf(err) != fault.WorkflowRunFailed || !strings.Contains(res.Steps[0].Error, `provider "claude" not available`) {
			t.Fatalf("err %v steps %+v", err, res.Steps)
		}
	})
	t.Run("output and interpolated prompt", func(t *testing.T) {
		a := &fakeAgent{out: ports.AgentResult{Output: "four"}}
		res, err := New(Options{Agents: map[string]ports.AgentProvider{"claude": a}, RunID: "r"}).Run(context.Background(), flow(agentState), map[string]string{"n": "2"})
		if err != nil || res.Steps[0].Output != "four" || a.got.Prompt != "sum 2" || a.got.Step != "ask" || a.got.Options["model"] != "m" {
			t.Fatalf("err %v res %+v req %+v", err, res, a.got)
		}
	})
	t.Run("provider error fails the step", func(t *testing.T) {
		a := &fakeAgent{err: errors.New("cli crashed")}
		res, err := New(Options{Agents: map[string]ports.AgentProvider{"claude": a}}).Run(context.Background(), flow(agentState), map[string]string{"n": "2"})
		if fault.CodeOf(err) != fault.WorkflowRunFailed || !strings.Contains(res.Steps[0].Error, "cli crashed") {
			t.Fatalf("err %v steps %+v", err, res.Steps)
		}
	})
}

func TestParseInputFlags(t *testing.T) {
	got, ds := ParseInputFlags([]string{"a=1", "b==2", "c=", "bad", "=x"})
	if got["a"] != "1" || got["b"] != "=2" || got["c"] != "" || len(ds) != 2 {
		t.Fatalf("got %v diags %v", got, ds)
	}
}
