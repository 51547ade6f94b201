package run

import (
	"context"
	"slices"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestTransition(t *testing.T) {
	st := &workflow.State{Name: "a", Type: workflow.StateCommand}
	tests := []struct {
		name     string
		then     Transition
		wantTo   string
		wantEnd  *End
		wantStop bool
	}{
		{"the zero value follows the state's transitions", Transition{}, "b", nil, false},
		{"GoTo of nothing is the zero value", GoTo(""), "b", nil, false},
		{"GoTo sends the run to the state it names", GoTo("c"), "c", nil, false},
		{"EndRun ends the run, which a non-terminal state may not", EndRun(End{Failed: true, Message: "m"}), "b", &End{Failed: true, Message: "m"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			end, ends := tc.then.Ends()
			if ends != (tc.wantEnd != nil) || (ends && end != *tc.wantEnd) || (!ends && end != End{}) {
				t.Errorf("Ends() = %+v, %v; want %+v", end, ends, tc.wantEnd)
			}
			to, err := tc.then.after(st, "b")
			stop, isStop := stopped(err)
			if to != tc.wantTo || isStop != tc.wantStop || (isStop && fault.CodeOf(stop) != fault.SystemInternalUnexpected) || (!isStop && err != nil) {
				t.Errorf("after = %q, %v; want %q, stop %v", to, err, tc.wantTo, tc.wantStop)
			}
		})
	}
}

// TestExecutorSendsTheRun: where an executor sends the run wins over the state's transitions,
// which are still evaluated; an executor of a non-terminal state cannot end the run.
func TestExecutorSendsTheRun(t *testing.T) {
	tests := []struct {
		name      string
		then      Transition
		wantSteps []string
		wantNext  string
		wantCode  string
		wantRun   string
	}{
		{"its transitions", Transition{}, []string{"a"}, "done", "", RunSuccess},
		{"where the executor says", GoTo("c"), []string{"a", "c"}, "c", "", RunSuccess},
		{"an end it may not give", EndRun(End{}), []string{"a"}, "done", fault.SystemInternalUnexpected, RunError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := executorFunc(func(_ context.Context, st *workflow.State, _ Scope) (Outcome, error) {
				if st.Name == "a" {
					return Outcome{Status: StepSuccess, Then: tc.then}, nil
				}
				return Outcome{Status: StepSuccess}, nil
			})
			res, err := newRun(t, Options{Executors: map[workflow.StateType]Executor{workflow.StateCommand: x}}).
				Run(context.Background(), flow(cmdState("a", "x", "done", "bad"), cmdState("c", "x", "done", "bad")), one)
			var names []string
			for _, s := range res.Steps {
				names = append(names, s.Name)
			}
			if fault.CodeOf(err) != tc.wantCode || res.Status != tc.wantRun || res.Steps[0].Next != tc.wantNext || !slices.Equal(names, tc.wantSteps) {
				t.Fatalf("err %v, run %s, steps %v, a goes to %q", err, res.Status, names, res.Steps[0].Next)
			}
		})
	}
}
