package run

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestRunner(t *testing.T) {
	tests := []struct {
		name       string
		wf         *workflow.Workflow
		inputs     map[string]string
		results    map[string]ports.CommandResult
		wantCode   string
		wantStatus string
		wantTerm   string
		wantSteps  []string // name:status→next
		wantCmds   []string
		wantErr    string
	}{
		{
			name:       "success path with typed inputs, env, workflow and quoting",
			wf:         flow(cmdState("a", "echo {{.inputs.n}} {{.inputs.flag}} {{quote .inputs.who}} {{.env.HOME}} {{.workflow.Name}}", "b", "bad"), cmdState("b", "echo {{.states.a.Output}}-{{.states.a.ExitCode}}-{{.states.a.Status}}-{{.workflow.ID}}", "done", "bad")),
			inputs:     map[string]string{"n": "3", "who": "it's"},
			results:    map[string]ports.CommandResult{`echo 3 true 'it'\''s' /h t`: {Stdout: "x\n\n"}, "echo x-0-success-r1": {}},
			wantStatus: RunSuccess,
			wantTerm:   "done",
			wantSteps:  []string{"a:success→b", "b:success→done"},
			wantCmds:   []string{`echo 3 true 'it'\''s' /h t`, "echo x-0-success-r1"},
		},
		{
			name:       "failure follows on_failure and ends in the failure terminal with its message",
			wf:         flow(cmdState("a", "false", "done", "bad")),
			inputs:     one,
			results:    map[string]ports.CommandResult{"false": {ExitCode: 1, Stderr: "disk full\n"}},
			wantCode:   fault.WorkflowRunFailed,
			wantStatus: RunFailure,
			wantTerm:   "bad",
			wantSteps:  []string{"a:failure→bad"},
			wantErr:    `workflow "t" ended in failure state "bad": because disk full`,
		},
		{
			name:       "failed step without on_failure fails the run",
			wf:         flow(cmdState("a", "false", "done", "")),
			inputs:     one,
			results:    map[string]ports.CommandResult{"false": {ExitCode: 2, Stderr: "first\nsecond"}},
			wantCode:   fault.WorkflowRunFailed,
			wantStatus: RunFailure,
			wantSteps:  []string{"a:failure→"},
			wantErr:    `step "a" failed and has no on_failure transition: exit code 2: first`,
		},
		{
			name:       "a success with on_success goes on even without on_failure",
			wf:         flow(cmdState("a", "true", "done", "")),
			inputs:     one,
			results:    map[string]ports.CommandResult{"true": {}},
			wantStatus: RunSuccess,
			wantTerm:   "done",
			wantSteps:  []string{"a:success→done"},
		},
		{
			name:       "missing input runs nothing",
			wf:         flow(cmdState("a", "true", "done", "bad")),
			inputs:     map[string]string{},
			wantCode:   fault.UserInputMissing,
			wantStatus: RunError,
			wantSteps:  []string{},
			wantErr:    `required input "n" (integer) is missing (pass it with --input n=<integer>)`,
		},
		{
			name:       "ill-typed input runs nothing",
			wf:         flow(cmdState("a", "true", "done", "bad")),
			inputs:     map[string]string{"n": "1", "flag": "maybe"},
			wantCode:   fault.UserInputInvalidValue,
			wantStatus: RunError,
			wantSteps:  []string{},
		},
		{
			name:       "reference to a state not run yet is a template error that stops the run",
			wf:         flow(cmdState("a", "echo {{.states.b.Output}}", "done", "bad"), cmdState("b", "true", "done", "bad")),
			inputs:     one,
			wantCode:   fault.UserTemplateExec,
			wantStatus: RunError,
			wantSteps:  []string{"a:failure→"},
		},
		{
			name:       "a template that does not parse stops the run",
			wf:         flow(cmdState("a", "echo {{.inputs.n", "done", "bad")),
			inputs:     one,
			wantCode:   fault.UserTemplateSyntax,
			wantStatus: RunError,
			wantSteps:  []string{"a:failure→"},
		},
		{
			name: "a dir template that fails stops the run",
			wf: func() *workflow.Workflow {
				s := cmdState("a", "true", "done", "bad")
				s.Command().Dir = "{{.inputs.nope}}"
				return flow(s)
			}(),
			inputs:     one,
			wantCode:   fault.UserTemplateExec,
			wantStatus: RunError,
			wantSteps:  []string{"a:failure→"},
		},
		{
			name:       "retry loop is bounded",
			wf:         flow(cmdState("a", "false", "done", "a")),
			inputs:     one,
			results:    map[string]ports.CommandResult{"false": {ExitCode: 1}},
			wantCode:   fault.ExecutionRunMaxSteps,
			wantStatus: RunError,
			wantSteps:  []string{"a:failure→a", "a:failure→a", "a:failure→a"},
			wantErr:    "run executed 3 steps without reaching a terminal state",
		},
		{
			name:       "a terminal reached on the last allowed step still ends the run",
			wf:         flow(cmdState("a", "true", "b", "bad"), cmdState("b", "true", "c", "bad"), cmdState("c", "true", "done", "bad")),
			inputs:     one,
			results:    map[string]ports.CommandResult{"true": {}},
			wantStatus: RunSuccess,
			wantTerm:   "done",
			wantSteps:  []string{"a:success→b", "b:success→c", "c:success→done"},
		},
		{
			name:       "a missing state is awf's own error",
			wf:         flow(cmdState("a", "true", "nowhere", "bad")),
			inputs:     one,
			results:    map[string]ports.CommandResult{"true": {}},
			wantCode:   fault.SystemRunUnknownState,
			wantStatus: RunError,
			wantSteps:  []string{"a:success→nowhere"},
		},
		{
			name: "a state of an unknown kind never runs as a command",
			wf: func() *workflow.Workflow {
				wf := flow(&workflow.State{Name: "a", Type: "shell", OnSuccess: "done", Spec: &workflow.UnknownSpec{Word: "shell", Parts: []workflow.Spec{&workflow.CommandSpec{Command: "rm -rf /"}}}})
				return wf
			}(),
			inputs:     one,
			wantCode:   fault.SystemRunNoExecutor,
			wantStatus: RunError,
			wantSteps:  []string{},
			wantErr:    `state "a" is of kind "shell", which this awf cannot execute`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sh := &fakeShell{t: t, results: tc.results}
			rec := &recorder{}
			r := newRun(t, Options{Commands: sh, RunID: "r1", MaxSteps: 3, Observer: rec})
			res, err := r.Run(context.Background(), tc.wf, tc.inputs)
			if got := fault.CodeOf(err); got != tc.wantCode {
				t.Fatalf("code %q, want %q (err %v)", got, tc.wantCode, err)
			}
			if tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q lacks %q", err, tc.wantErr)
			}
			if res.Status != tc.wantStatus || res.Terminal != tc.wantTerm || res.RunID != "r1" || res.Workflow != "t" {
				t.Errorf("result %+v, want status %q terminal %q", res, tc.wantStatus, tc.wantTerm)
			}
			if tc.wantSteps != nil {
				got := []string{}
				for _, s := range res.Steps {
					got = append(got, s.Name+":"+string(s.Status)+"→"+s.Next)
				}
				if !reflect.DeepEqual(got, tc.wantSteps) {
					t.Errorf("steps %v, want %v", got, tc.wantSteps)
				}
			}
			if tc.wantCmds != nil && !reflect.DeepEqual(sh.commands(), tc.wantCmds) {
				t.Errorf("commands %q, want %q", sh.commands(), tc.wantCmds)
			}
			fin, ok := rec.events[len(rec.events)-1].(RunFinished)
			if !ok || fin.Status != res.Status || fin.Terminal != res.Terminal || fin.Err != err {
				t.Errorf("last event %#v does not match the result %+v / %v", rec.events[len(rec.events)-1], res, err)
			}
		})
	}
}

func TestCommandStepDetails(t *testing.T) {
	s := cmdState("a", "make", "done", "bad")
	s.Command().Dir = "sub/{{.inputs.who}}"
	long := strings.Repeat("x", outputKeepForDisplay+10) + "END"
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"make": {Stdout: "out\n", Stderr: long, ExitCode: 3}}}
	res, _ := newRun(t, Options{Commands: sh, Dir: "/proj", Environ: []string{"A=1", "B=x=y", "junk"}}).
		Run(context.Background(), flow(s), map[string]string{"n": "1", "who": "w"})
	req := sh.seen[0]
	if req.Dir != "/proj/sub/w" || !reflect.DeepEqual(req.Env, []string{"A=1", "B=x=y", "junk"}) {
		t.Errorf("request %+v", req)
	}
	st := res.Steps[0]
	want := "exit code 3: …" + long[len(long)-outputKeepForDisplay:]
	if st.Output != "out" || st.Stderr != long || st.ExitCode != 3 || st.Error != want || st.Type != "command" {
		t.Errorf("step %+v", st)
	}

	abs := cmdState("a", "make", "done", "bad")
	abs.Command().Dir = "/elsewhere"
	sh = &fakeShell{t: t, results: map[string]ports.CommandResult{"make": {}}}
	newRun(t, Options{Commands: sh, Dir: "/proj"}).Run(context.Background(), flow(abs), one)
	if sh.seen[0].Dir != "/elsewhere" {
		t.Errorf("absolute dir became %q", sh.seen[0].Dir)
	}
	sh = &fakeShell{t: t, results: map[string]ports.CommandResult{"make": {}}}
	newRun(t, Options{Commands: sh, Dir: "/proj"}).Run(context.Background(), flow(cmdState("a", "make", "done", "bad")), one)
	if sh.seen[0].Dir != "/proj" {
		t.Errorf("a step without dir runs in %q, want the root", sh.seen[0].Dir)
	}
	rel := cmdState("a", "make", "done", "bad")
	rel.Command().Dir = "sub"
	sh = &fakeShell{t: t, results: map[string]ports.CommandResult{"make": {}}}
	newRun(t, Options{Commands: sh}).Run(context.Background(), flow(rel), one)
	if sh.seen[0].Dir != "sub" {
		t.Errorf("without a root a relative dir stays %q", sh.seen[0].Dir)
	}
}

func TestEnvironmentIsOnlyWhatTheCallerGives(t *testing.T) {
	t.Setenv("AWF_TEST_LEAK", "leaked")
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{}}
	_, err := newRun(t, Options{Commands: sh, Environ: []string{}}).
		Run(context.Background(), flow(cmdState("a", "echo {{.env.AWF_TEST_LEAK}}", "done", "bad")), one)
	if fault.CodeOf(err) != fault.UserTemplateExec || len(sh.seen) != 0 {
		t.Fatalf("the process environment reached a template: err %v, commands %v", err, sh.seen)
	}
}

func TestCommandRunnerError(t *testing.T) {
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"x": {ExitCode: 0}}, err: errors.New("cannot start shell")}
	res, err := newRun(t, Options{Commands: sh}).Run(context.Background(), flow(cmdState("a", "x", "done", "bad")), one)
	if fault.CodeOf(err) != fault.WorkflowRunFailed || res.Terminal != "bad" {
		t.Fatalf("err %v res %+v", err, res)
	}
	if st := res.Steps[0]; st.Status != StepFailure || st.ExitCode != -1 || st.Error != "cannot start shell" {
		t.Errorf("step %+v", st)
	}
	sh = &fakeShell{t: t, results: map[string]ports.CommandResult{"x": {ExitCode: 7}}, err: errors.New("lost")}
	res, _ = newRun(t, Options{Commands: sh}).Run(context.Background(), flow(cmdState("a", "x", "done", "bad")), one)
	if st := res.Steps[0]; st.ExitCode != 7 || st.Error != "lost" {
		t.Errorf("an exit code the command had is kept: %+v", st)
	}
}

func TestStepTimeoutFollowsOnFailure(t *testing.T) {
	slow := cmdState("a", "sleep", "done", "bad")
	slow.Timeout = 20 * time.Millisecond
	sh := &fakeShell{t: t, block: true}
	res, err := newRun(t, Options{Commands: sh}).Run(context.Background(), flow(slow), one)
	if fault.CodeOf(err) != fault.WorkflowRunFailed || len(res.Steps) != 1 || res.Terminal != "bad" {
		t.Fatalf("err %v steps %+v", err, res.Steps)
	}
	st := res.Steps[0]
	if st.Status != StepFailure || st.ExitCode != -1 || st.Output != "partial" || st.Error != `[EXECUTION.STEP.TIMEOUT] step "a" timed out after 20ms` || st.Next != "bad" {
		t.Errorf("step %+v", st)
	}
}

func TestInterruptStopsTheRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sh := &fakeShell{t: t, block: true, started: make(chan struct{})}
	go func() { <-sh.started; cancel() }()
	rec := &recorder{}
	res, err := newRun(t, Options{Commands: sh, Observer: rec}).Run(ctx, flow(cmdState("a", "sleep", "done", "bad")), one)
	if fault.ExitCode(err) != fault.ExitInterrupted || res.Status != RunInterrupted || len(res.Steps) != 1 || res.Steps[0].Status != StepFailure {
		t.Fatalf("err %v res %+v", err, res)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("the interrupt must keep its cause: %v", err)
	}
}

func TestInterruptAfterAStepSucceeded(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := executorFunc(func(context.Context, *workflow.State, Scope) (Outcome, error) {
		cancel() // Ctrl+C arrives as the step ends well
		return Outcome{Status: StepSuccess}, nil
	})
	res, err := newRun(t, Options{Executors: map[workflow.StateType]Executor{workflow.StateCommand: x}}).
		Run(ctx, flow(cmdState("a", "true", "done", "bad")), one)
	if fault.ExitCode(err) != fault.ExitInterrupted || res.Status != RunInterrupted {
		t.Fatalf("err %v res %+v", err, res)
	}
}

func TestCancelledBeforeAStep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sh := &fakeShell{t: t}
	res, err := newRun(t, Options{Commands: sh}).Run(ctx, flow(cmdState("a", "true", "done", "bad")), one)
	if fault.ExitCode(err) != fault.ExitInterrupted || res.Status != RunInterrupted || len(sh.seen) != 0 || len(res.Steps) != 0 {
		t.Fatalf("err %v res %+v commands %v", err, res, sh.seen)
	}
}

func TestTimeoutKeepsAnExitCode(t *testing.T) {
	for _, code := range []int{0, 143} {
		x := executorFunc(func(ctx context.Context, _ *workflow.State, _ Scope) (Outcome, error) {
			<-ctx.Done()
			return Outcome{ExitCode: code}, context.Cause(ctx)
		})
		st := cmdState("a", "x", "done", "bad")
		st.Timeout = time.Millisecond
		res, _ := newRun(t, Options{Executors: map[workflow.StateType]Executor{workflow.StateCommand: x}}).Run(context.Background(), flow(st), one)
		want := code
		if code == 0 {
			want = -1
		}
		if s := res.Steps[0]; s.ExitCode != want || s.Status != StepFailure {
			t.Errorf("exit %d under a timeout became %+v", code, s)
		}
	}
}

func TestTail(t *testing.T) {
	if got := tail("abc", 3); got != "abc" {
		t.Errorf("tail at the limit = %q", got)
	}
	if got := tail("abcd", 3); got != "…bcd" {
		t.Errorf("tail past the limit = %q", got)
	}
}
