package run

import (
	"context"
	"errors"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// fakeExprs evaluates a fixed table of conditions and counts compilations.
type fakeExprs struct {
	holds    map[string]bool
	compiled int
	seen     map[string]any
}

func (f *fakeExprs) Compile(src string, _ ports.ExprKind) (ports.Expression, error) {
	f.compiled++
	return fakeExpr{f, src}, nil
}

type fakeExpr struct {
	f   *fakeExprs
	src string
}

func (e fakeExpr) Source() string        { return e.src }
func (e fakeExpr) Refs() []ports.ExprRef { return nil }
func (e fakeExpr) Int(map[string]any) (int, error) {
	return 0, errors.New("not used")
}
func (e fakeExpr) Bool(vars map[string]any) (bool, error) {
	e.f.seen = vars
	v, ok := e.f.holds[e.src]
	if !ok {
		return false, &ports.ExprError{Message: "cannot fetch"}
	}
	return v, nil
}

func TestTransitions(t *testing.T) {
	tests := []struct {
		name   string
		trs    []workflow.Transition
		exit   int
		holds  map[string]bool
		want   string
		reruns bool
	}{
		{"first match wins", []workflow.Transition{{When: "no", Goto: "x"}, {When: "yes", Goto: "y"}, {When: "yes", Goto: "x"}}, 0, map[string]bool{"no": false, "yes": true}, "y", false},
		{"an entry without when is the default", []workflow.Transition{{When: "no", Goto: "x"}, {Goto: "y"}}, 0, map[string]bool{"no": false}, "y", false},
		{"checked after failure too", []workflow.Transition{{When: "yes", Goto: "y"}}, 3, map[string]bool{"yes": true}, "y", false},
		{"no match falls back to on_success", []workflow.Transition{{When: "no", Goto: "x"}}, 0, map[string]bool{"no": false}, "done", false},
		{"no match falls back to on_failure", []workflow.Transition{{When: "no", Goto: "x"}}, 3, map[string]bool{"no": false}, "bad", false},
		{"a condition that cannot be evaluated does not hold", []workflow.Transition{{When: "unknown", Goto: "x"}, {When: "yes", Goto: "y"}}, 0, map[string]bool{"yes": true}, "y", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := cmdState("a", "make", "done", "bad")
			a.Transitions = tt.trs
			x, y := cmdState("x", "x", "done", "bad"), cmdState("y", "y", "done", "bad")
			sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"make": {ExitCode: tt.exit, Stdout: "built"}, "x": {}, "y": {}}}
			ex := &fakeExprs{holds: tt.holds}
			res, _ := newRun(t, Options{Commands: sh, Expressions: ex}).Run(context.Background(), flow(a, x, y), one)
			if res.Steps[0].Next != tt.want {
				t.Fatalf("next = %q, want %q (steps %+v)", res.Steps[0].Next, tt.want, res.Steps)
			}
			if ex.seen != nil {
				st := ex.seen["states"].(map[string]any)["a"].(map[string]any)
				if st["Output"] != "built" || st["exit_code"] != tt.exit {
					t.Errorf("the condition saw %v", st)
				}
			}
		})
	}
}

func TestTransitionsCompileOncePerRun(t *testing.T) {
	a := cmdState("a", "make", "a", "bad")
	a.Transitions = []workflow.Transition{{When: "again", Goto: "a"}}
	ex := &fakeExprs{holds: map[string]bool{"again": true}}
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"make": {}}}
	_, err := newRun(t, Options{Commands: sh, Expressions: ex, MaxSteps: 5}).Run(context.Background(), flow(a), one)
	if fault.CodeOf(err) != fault.ExecutionRunMaxSteps || ex.compiled != 1 || len(sh.commands()) != 5 {
		t.Fatalf("err %v compiled %d runs %d", err, ex.compiled, len(sh.commands()))
	}
}

func TestWhenWithoutCompilerStopsTheRun(t *testing.T) {
	a := cmdState("a", "make", "done", "bad")
	a.Transitions = []workflow.Transition{{When: "x", Goto: "done"}}
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"make": {}}}
	_, err := newRun(t, Options{Commands: sh}).Run(context.Background(), flow(a), one)
	if fault.CodeOf(err) != fault.SystemRunSetup {
		t.Fatalf("err %v", err)
	}
}
