package validate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// tableCompiler compiles from a table: an entry's refs, or its error.
type tableCompiler map[string]any

func (c tableCompiler) Compile(src string, kind ports.ExprKind) (ports.Expression, error) {
	if kind != ports.ExprBool {
		return nil, errors.New("conditions are compiled as bool")
	}
	switch v := c[src].(type) {
	case error:
		return nil, v
	case []ports.ExprRef:
		return refsOnly{src, v}, nil
	}
	return refsOnly{src: src}, nil
}

type refsOnly struct {
	src  string
	refs []ports.ExprRef
}

func (r refsOnly) Source() string                    { return r.src }
func (r refsOnly) Refs() []ports.ExprRef             { return r.refs }
func (r refsOnly) Bool(map[string]any) (bool, error) { return false, nil }
func (r refsOnly) Int(map[string]any) (int, error)   { return 0, nil }

func at(line int) fault.Position { return fault.Position{File: "wf.yaml", Line: line, Column: 9} }

func TestExpressionCheck(t *testing.T) {
	c := tableCompiler{
		"syntax":   &ports.ExprError{Line: 1, Column: 7, Message: "unexpected token"},
		"plain":    errors.New("broken"),
		"refs":     []ports.ExprRef{{Path: []string{"states", "a"}}, {Path: []string{"states", "nope", "ExitCode"}}, {Path: []string{"inputs", "n"}}, {Path: []string{"inputs", "m"}}, {Path: []string{"env", "X"}}, {Path: []string{"states"}}},
		"fine":     []ports.ExprRef{{Path: []string{"states", "a", "Output"}}},
		"position": &ports.ExprError{Message: "somewhere"},
	}
	a := &workflow.State{Name: "a", Type: workflow.StateCommand, Spec: &workflow.CommandSpec{Command: "x"},
		Transitions: []workflow.Transition{{When: "syntax"}, {When: "plain"}, {When: "refs"}, {Goto: "a"}, {When: "fine"}, {When: "position"}},
		ValuePos:    map[string]fault.Position{"transitions[0].when": at(1), "transitions[1].when": at(2), "transitions[2].when": at(3), "transitions[5].when": at(6)}}
	wf := &workflow.Workflow{Order: []string{"a", "ghost"}, States: map[string]*workflow.State{"a": a}, Inputs: []workflow.Input{{Name: "n"}}}
	ds := ExpressionCheck(c)(context.Background(), wf)
	var got []string
	for _, d := range ds {
		got = append(got, d.Position.String()+" "+d.Code+" "+d.Message)
	}
	want := []string{
		`wf.yaml:1:9 USER.EXPR.INVALID transitions[0].when of state "a" does not compile: line 1, column 7: unexpected token`,
		`wf.yaml:2:9 USER.EXPR.INVALID transitions[1].when of state "a" does not compile: broken`,
		`wf.yaml:3:9 USER.EXPR.UNKNOWN_REFERENCE transitions[2].when of state "a" reads state "nope", which the workflow does not have`,
		`wf.yaml:3:9 USER.EXPR.UNKNOWN_REFERENCE transitions[2].when of state "a" reads input "m", which the workflow does not declare`,
		`wf.yaml:6:9 USER.EXPR.INVALID transitions[5].when of state "a" does not compile: somewhere`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ds[0].Hint == "" || ds[2].Hint == "" && ds[3].Hint == "" {
		t.Error("hints say what expressions can read")
	}
	if ExpressionCheck(c)(context.Background(), nil) != nil {
		t.Error("no workflow, nothing to say")
	}
}
