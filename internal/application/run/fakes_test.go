package run

import (
	"context"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// fakeShell answers commands from a table; a command missing from it fails the test.
type fakeShell struct {
	t       *testing.T
	results map[string]ports.CommandResult
	seen    []ports.CommandRequest
	// block makes it wait for ctx instead of answering; started, when set, is closed once the
	// command is waiting, so a test can act on a running step without sleeping.
	block   bool
	started chan struct{}
	err     error
}

func (f *fakeShell) RunCommand(ctx context.Context, req ports.CommandRequest) (ports.CommandResult, error) {
	f.seen = append(f.seen, req)
	if f.block {
		if f.started != nil {
			close(f.started)
		}
		<-ctx.Done()
		return ports.CommandResult{ExitCode: -1, Stdout: "partial\n"}, context.Cause(ctx)
	}
	r, ok := f.results[req.Shown]
	if !ok {
		f.t.Fatalf("unexpected command %q (shown %q)", req.Command, req.Shown)
	}
	return r, f.err
}

func (f *fakeShell) commands() []string {
	out := make([]string, len(f.seen))
	for i, r := range f.seen {
		out[i] = r.Shown
	}
	return out
}

type fakeAgent struct {
	out   ports.AgentResult
	err   error
	got   ports.AgentRequest
	calls int
}

func (a *fakeAgent) Name() string { return "claude" }
func (a *fakeAgent) Run(_ context.Context, req ports.AgentRequest) (ports.AgentResult, error) {
	a.got = req
	a.calls++
	return a.out, a.err
}

// fakePrompts serves prompt files from a map; block waits for ctx like a FIFO would.
type fakePrompts struct {
	files map[string]string
	asked []string
	err   error
	block bool
}

func (p *fakePrompts) ReadPrompt(ctx context.Context, path string) (string, error) {
	p.asked = append(p.asked, path)
	if p.block {
		<-ctx.Done()
		return "", context.Cause(ctx)
	}
	if p.err != nil {
		return "", p.err
	}
	s, ok := p.files[path]
	if !ok {
		return "", fault.New(fault.UserAgentPromptFile, "prompt file %s does not exist", path).WithHint("check the path")
	}
	return s, nil
}

// recorder keeps every event of a run.
type recorder struct{ events []Event }

func (r *recorder) Observe(e Event) { r.events = append(r.events, e) }

func cmdState(name, cmd, ok, fail string) *workflow.State {
	return &workflow.State{Name: name, Type: workflow.StateCommand, Spec: &workflow.CommandSpec{Command: cmd}, OnSuccess: ok, OnFailure: fail}
}

func agentState(prompt string) *workflow.State {
	return &workflow.State{Name: "ask", Type: workflow.StateAgent, OnSuccess: "done", OnFailure: "bad",
		Spec: &workflow.AgentSpec{Provider: "claude", Prompt: prompt, Options: map[string]any{"model": "m"}}}
}

func flow(states ...*workflow.State) *workflow.Workflow {
	wf := &workflow.Workflow{Name: "t", Initial: states[0].Name, States: map[string]*workflow.State{}}
	for _, s := range states {
		wf.States[s.Name] = s
		wf.Order = append(wf.Order, s.Name)
	}
	wf.States["done"] = &workflow.State{Name: "done", Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusSuccess}}
	wf.States["bad"] = &workflow.State{Name: "bad", Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusFailure, Message: "because {{.states.a.Stderr}}"}}
	wf.Inputs = []workflow.Input{
		{Name: "n", Type: workflow.InputInteger, Required: true},
		{Name: "flag", Type: workflow.InputBoolean, Default: true},
		{Name: "who", Type: workflow.InputString},
	}
	return wf
}

// newRun builds a Runner for tests: the environment is given, as the engine requires.
func newRun(t *testing.T, opts Options) *Runner {
	t.Helper()
	if opts.Environ == nil {
		opts.Environ = []string{"HOME=/h"}
	}
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var one = map[string]string{"n": "1"}
