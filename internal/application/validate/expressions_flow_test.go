package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/expr"
)

// TestLoopExpressions compiles the loops' while, break_when and computed max_iterations, and
// checks where loop data may be read: in a loop's own conditions and inside its body.
func TestLoopExpressions(t *testing.T) {
	loop := func(name string, body []string, while, brk, count string) *workflow.State {
		return &workflow.State{Name: name, Type: workflow.StateWhile, OnSuccess: "done",
			Spec:     &workflow.WhileSpec{While: while, LoopSpec: workflow.LoopSpec{Body: body, BreakWhen: brk, MaxIterationsExpr: count}},
			ValuePos: map[string]fault.Position{"while": at(1), "break_when": at(2), "max_iterations": at(3)}}
	}
	cmd := func(name string, trs ...workflow.Transition) *workflow.State {
		return &workflow.State{Name: name, Type: workflow.StateCommand, Spec: &workflow.CommandSpec{Command: "x"}, Transitions: trs,
			ValuePos: map[string]fault.Position{"transitions[0].when": at(4)}}
	}
	tests := []struct {
		name   string
		states []*workflow.State
		want   []string
	}{
		{"conditions of a loop read its loop", []*workflow.State{loop("w", []string{"b"}, "loop.Index < 3", "loop.first && states.b.ExitCode == 0", "inputs.n * 2"), cmd("b")}, nil},
		{"a body state reads its loop and its parent's", []*workflow.State{loop("w", []string{"i"}, "", "", ""), loop("i", []string{"b"}, "loop.Parent.Index < 2", "", ""), cmd("b", workflow.Transition{When: "loop.Parent.Item == loop.Item", Goto: "b"})}, nil},
		{"loop outside a loop", []*workflow.State{cmd("b", workflow.Transition{When: "loop.Index > 1", Goto: "b"})},
			[]string{`wf.yaml:4:9 USER.EXPR.LOOP_OUTSIDE transitions[0].when of state "b" reads loop.Index, but no loop runs here`}},
		{"a parent that does not exist", []*workflow.State{loop("w", []string{"b"}, "loop.Parent.Index < 3", "", "")},
			[]string{`wf.yaml:1:9 USER.EXPR.LOOP_OUTSIDE while of state "w" reads loop.Parent.Index: no enclosing loop runs this loop, so it has no Parent`}},
		{"a count computed from the loop around the state", []*workflow.State{loop("w", nil, "", "", "loop.Index + 1")},
			[]string{`wf.yaml:3:9 USER.EXPR.LOOP_OUTSIDE max_iterations of state "w" reads loop.Index, but no loop runs here`}},
		{"conditions and counts that do not compile", []*workflow.State{loop("w", nil, "loop.Index <", "1 + 2", "{{.inputs.n}} * ")},
			[]string{`wf.yaml:1:9 USER.EXPR.INVALID while of state "w" does not compile`, `wf.yaml:2:9 USER.EXPR.INVALID break_when of state "w" does not compile`,
				`wf.yaml:3:9 USER.EXPR.INVALID max_iterations of state "w" does not compile`}},
		{"a template count is checked around its actions", []*workflow.State{loop("w", nil, "", "", "{{.inputs.n}} * {{.inputs.n}}")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wf := &workflow.Workflow{States: map[string]*workflow.State{}, Inputs: []workflow.Input{{Name: "n"}}}
			for _, s := range tt.states {
				wf.States[s.Name] = s
				wf.Order = append(wf.Order, s.Name)
			}
			var got []string
			for _, d := range ExpressionCheck(expr.Compiler{})(context.Background(), wf) {
				got = append(got, d.Position.String()+" "+d.Code+" "+d.Message)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("diagnostic %d\n got %s\nwant %s…", i, got[i], tt.want[i])
				}
			}
		})
	}
}
