package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/expr"
)

// fakeSteps answers the members of a loop or parallel state from a table, without a scheduler:
// what the executors of those kinds need from a run is Steps and nothing else.
type fakeSteps struct {
	wf      *workflow.Workflow
	results map[string]StepResult // by member; Next is where its transitions lead
	mu      sync.Mutex
	calls   []string
}

func (f *fakeSteps) Run(_ context.Context, name string, scope Scope) (Step, error) {
	return f.answer("run "+name, name, scope)
}

func (f *fakeSteps) Follow(_ context.Context, name string, scope Scope) (Step, error) {
	return f.answer("follow "+name, name, scope)
}

func (f *fakeSteps) answer(call, name string, scope Scope) (Step, error) {
	f.record(call)
	sr := f.results[name]
	sr.Name = name
	if sr.Status == "" {
		sr.Status = StepSuccess
	}
	return Step{Result: sr, Scope: withStep(scope, sr)}, nil
}

func (f *fakeSteps) Skip(name string, scope Scope, why error) Step {
	f.record("skip " + name + ": " + why.Error())
	sr := StepResult{Name: name, Status: StepFailure, ExitCode: -1, Error: why.Error()}
	return Step{Result: sr, Scope: withStep(scope, sr)}
}

func (f *fakeSteps) record(call string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call)
}

func (f *fakeSteps) Workflow() *workflow.Workflow { return f.wf }
func (f *fakeSteps) Log() *zap.Logger             { return zap.NewNop() }

func TestLoopExecutorWithSteps(t *testing.T) {
	tests := []struct {
		name      string
		body      []string
		results   map[string]StepResult
		wantCalls string
		wantOut   Outcome
		wantError string
	}{
		{"every item runs the body in order", []string{"a", "b"}, nil, "follow a|follow b|follow a|follow b",
			Outcome{Status: StepSuccess, Output: "completed 2 iterations", Iterations: 2}, ""},
		{"a failed body state no transition handles fails the loop", []string{"a", "b"}, map[string]StepResult{"a": {Status: StepFailure, ExitCode: 3, Error: "boom\nmore"}},
			"follow a", Outcome{Status: StepFailure, ExitCode: 3, Output: "completed 1 iterations", Iterations: 1}, "[" + fault.ExecutionLoopBodyFailed + `] body state "a" of loop "each" failed: boom`},
		{"a transition out of the body leaves the loop for it", []string{"a", "b"}, map[string]StepResult{"a": {Next: "out"}},
			"follow a", Outcome{Status: StepSuccess, Output: "completed 1 iterations", Iterations: 1, Then: GoTo("out")}, ""},
		{"a failed body state leaving the loop fails it on the way", []string{"a", "b"}, map[string]StepResult{"a": {Status: StepFailure, ExitCode: 2, Next: "out"}},
			"follow a", Outcome{Status: StepFailure, ExitCode: 2, Output: "completed 1 iterations", Iterations: 1, Then: GoTo("out")}, "[" + fault.ExecutionLoopBodyFailed + "]"},
		{"a transition to a body state jumps there", []string{"a", "skipped", "b", "b2"}, map[string]StepResult{"b": {Next: "b2"}, "a": {Next: "b"}},
			"follow a|follow b|follow b2|follow a|follow b|follow b2", Outcome{Status: StepSuccess, Output: "completed 2 iterations", Iterations: 2}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			each := &workflow.State{Name: "each", Type: workflow.StateForEach,
				Spec: &workflow.ForEachSpec{IsList: true, ItemList: []any{"x", "y"}, LoopSpec: workflow.LoopSpec{Body: tc.body}}}
			steps := &fakeSteps{wf: flow(each, cmdState("out", "x", "done", "bad")), results: tc.results}
			out, err := loopExecutor{}.Execute(context.Background(), each, NewScope(nil, nil, WorkflowInfo{}), steps)
			if err != nil || out.Scope == nil || strings.Join(steps.calls, "|") != tc.wantCalls {
				t.Fatalf("err %v, calls %q", err, steps.calls)
			}
			if !strings.HasPrefix(out.Error, tc.wantError) || (tc.wantError == "") != (out.Error == "") {
				t.Errorf("error %q, want %q…", out.Error, tc.wantError)
			}
			out.Error, out.Scope = "", nil
			if fmt.Sprint(out) != fmt.Sprint(tc.wantOut) {
				t.Errorf("outcome %+v, want %+v", out, tc.wantOut)
			}
		})
	}
}

// TestLoopExecutorFailsOrStops: items that are no list, a bound out of range and a while that
// cannot be evaluated fail the loop (an error of its own work, exit code -1), a template that
// does not render stops the run.
func TestLoopExecutorFailsOrStops(t *testing.T) {
	body := workflow.LoopSpec{Body: []string{"a"}}
	bound := workflow.LoopSpec{Body: []string{"a"}, MaxIterationsExpr: "{{.inputs.n}}"}
	tests := []struct {
		name     string
		spec     workflow.Spec
		wantCode string
		wantStop bool
		wantOut  string
	}{
		{"items that are no JSON list", &workflow.ForEachSpec{Items: "nope", LoopSpec: body}, fault.ExecutionLoopItems, false, ""},
		{"a bound out of range", &workflow.ForEachSpec{IsList: true, LoopSpec: bound}, fault.ExecutionLoopMaxIterations, false, ""},
		{"items that do not render", &workflow.ForEachSpec{Items: "{{.nope}}", LoopSpec: body}, fault.UserTemplateExec, true, ""},
		{"a while that cannot be evaluated", &workflow.WhileSpec{While: "states.a.Output + 1 > 0", LoopSpec: body}, fault.ExecutionLoopCondition, false, "completed 0 iterations"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			loop := &workflow.State{Name: "loop", Type: tc.spec.Kind(), Spec: tc.spec}
			steps := &fakeSteps{wf: flow(loop)}
			x := loopExecutor{exprs: &exprCache{compiler: expr.Compiler{}}}
			out, err := x.Execute(context.Background(), loop, NewScope(map[string]any{"n": 0}, nil, WorkflowInfo{}), steps)
			_, isStop := stopped(err)
			if fault.CodeOf(err) != tc.wantCode || isStop != tc.wantStop || out.Status != StepFailure || out.ExitCode != -1 || out.Output != tc.wantOut || len(steps.calls) > 0 {
				t.Fatalf("outcome %+v, err %v (stop %v), calls %q", out, err, isStop, steps.calls)
			}
		})
	}
}

func TestParallelExecutorWithSteps(t *testing.T) {
	tests := []struct {
		name      string
		strategy  workflow.Strategy
		results   map[string]StepResult
		wantCalls string
		wantOut   Outcome
	}{
		{"all succeed", workflow.AllSucceed, nil, "run a|run b", Outcome{Status: StepSuccess}},
		{"the first failure decides all_succeed and the rest never start", workflow.AllSucceed, map[string]StepResult{"a": {Status: StepFailure, ExitCode: 5, Error: "no"}},
			`run a|skip b: [` + fault.ExecutionParallelCancelled + `] branch "b" cancelled before it started: branch "a" failed first`,
			Outcome{Status: StepFailure, ExitCode: 5, Error: "[" + fault.ExecutionParallelFailed + `] parallel state "par" (all_succeed): a: no; b: [` + fault.ExecutionParallelCancelled + `] branch "b" cancelled before it started: branch "a" failed first`}},
		{"best_effort succeeds whatever the branches did", workflow.BestEffort, map[string]StepResult{"a": {Status: StepFailure}, "b": {Status: StepFailure}},
			"run a|run b", Outcome{Status: StepSuccess}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			par := &workflow.State{Name: "par", Type: workflow.StateParallel, Spec: &workflow.ParallelSpec{Branches: []string{"a", "b"}, Strategy: tc.strategy, MaxConcurrent: 1}}
			steps := &fakeSteps{wf: flow(par, cmdState("b", "x", "", "")), results: tc.results}
			out, err := parallelExecutor{}.Execute(context.Background(), par, NewScope(nil, nil, WorkflowInfo{}), steps)
			if err != nil || out.Scope == nil || strings.Join(steps.calls, "|") != tc.wantCalls {
				t.Fatalf("err %v, calls %q", err, steps.calls)
			}
			for _, b := range []string{"a", "b"} {
				if _, ok := out.Scope.State(b); !ok {
					t.Errorf("branch %s not recorded in the scope the state leaves", b)
				}
			}
			out.Scope = nil
			if fmt.Sprint(out) != fmt.Sprint(tc.wantOut) {
				t.Errorf("outcome %+v, want %+v", out, tc.wantOut)
			}
		})
	}
}

// TestMembersSkip: a member never started is reported at once, with its kind and where it
// was, and recorded as failed with only its status and exit code.
func TestMembersSkip(t *testing.T) {
	rec := &recorder{}
	wf := flow(cmdState("a", "x", "done", "bad"))
	m := &members{s: &scheduler{events: rec}, wf: wf, log: zap.NewNop()}
	scope := NewScope(nil, nil, WorkflowInfo{}).withBranch("par")
	step := m.Skip("a", scope, errors.New("why"))
	want := StepResult{Name: "a", Type: "command", Status: StepFailure, ExitCode: -1, Within: "par", Error: "why"}
	if len(rec.events) != 1 || fmt.Sprint(rec.events[0]) != fmt.Sprint(StepFinished{Step: want}) || fmt.Sprint(step.Result) != fmt.Sprint(want) {
		t.Fatalf("events %+v, step %+v", rec.events, step.Result)
	}
	if d, ok := step.Scope.State("a"); !ok || d.ExitCode != -1 || d.Status != string(StepFailure) || d.Output != "" {
		t.Errorf("recorded %+v", d)
	}
	if m.Workflow() != wf || m.Log() == nil {
		t.Error("members does not lend its workflow and log")
	}
}

// TestCutShort: a member stopped by the state running it fails with exit code -1 and says why;
// any other error is left to stop the run.
func TestCutShort(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name      string
		cause     error
		wantErr   error
		wantError string
	}{
		{"the running state timed out", errStepTimeout, nil, "[" + fault.ExecutionStepTimeout + `] step "a" stopped: the state running it timed out`},
		{"a parallel state decided", &decided{why: "b won"}, nil, "[" + fault.ExecutionParallelCancelled + `] branch "a" cancelled: b won`},
		{"anything else stops the run", errors.New("ctrl-c"), boom, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(tc.cause)
			sr := StepResult{Name: "a", Status: StepSuccess}
			err := cutShort(ctx, &sr, boom)
			want := StepResult{Name: "a", Status: StepSuccess}
			if tc.wantErr == nil {
				want = StepResult{Name: "a", Status: StepFailure, ExitCode: -1, Error: tc.wantError}
			}
			if !errors.Is(err, tc.wantErr) || fmt.Sprint(sr) != fmt.Sprint(want) {
				t.Fatalf("err %v, result %+v; want %v, %+v", err, sr, tc.wantErr, want)
			}
		})
	}
}
