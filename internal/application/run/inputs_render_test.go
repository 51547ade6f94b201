package run

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestInputListRendersAsJSON(t *testing.T) {
	l := workflow.InputList{"a", "<b>", 2.0, true, map[string]any{"k": "v"}}
	if got, want := l.String(), `["a","<b>",2,true,{"k":"v"}]`; got != want {
		t.Fatalf("String() = %s, want %s", got, want)
	}
	sc := NewScope(map[string]any{"files": workflow.InputList{"a b", "c'd"}}, nil, WorkflowInfo{})
	out, err := render("t", "{{.inputs.files}}", sc, fault.Position{})
	if err != nil || out != `["a b","c'd"]` {
		t.Fatalf("render = %q, %v", out, err)
	}
	out, err = renderShell("t", "echo {{.inputs.files}}", sc, fault.Position{})
	if err != nil || out != `echo '["a b","c'\''d"]'` {
		t.Fatalf("renderShell = %q, %v", out, err)
	}
	out, err = render("t", "{{len .inputs.files}} {{index .inputs.files 1}}{{range .inputs.files}}|{{.}}{{end}}", sc, fault.Position{})
	if err != nil || out != `2 c'd|a b|c'd` {
		t.Fatalf("render list funcs = %q, %v", out, err)
	}
}
