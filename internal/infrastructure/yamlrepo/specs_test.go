package yamlrepo

import (
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// TestStateSpecs checks that each key lands in the spec of the kind that owns it: the state's
// own kind when it accepts the key, otherwise a spec of the owning kind that validation reports
// (known type) or keeps for template checks (unknown type).
func TestStateSpecs(t *testing.T) {
	src := `name: x
states:
  initial: a
  a:
    type: agent
    provider: claude
    prompt: hi
    command: ls
    dir: sub
    on_success: d
  b:
    type: comand
    command: make {{.inputs.x}}
    prompt: p
    dir: d
    status: failure
    on_success: d
  c:
    command: echo
    on_success: d
  d: {type: terminal}
  e: {type: terminal, status: failure, message: m}
`
	w, ds := Parse("x.yaml", []byte(src))
	if !ds.HasErrors() {
		t.Fatal("want diagnostics")
	}
	a := w.States["a"]
	if got, ok := a.Spec.(*workflow.AgentSpec); !ok || got.Provider != "claude" || got.Dir != "sub" || got.Prompt != "hi" {
		t.Errorf("agent spec %#v", a.Spec)
	}
	if a.Command() != nil {
		t.Error("a foreign key made an agent a command")
	}
	if _, written := a.KeyPos["command"]; !written {
		t.Error("the foreign key's position is kept for validation to report")
	}

	b, ok := w.States["b"].Spec.(*workflow.UnknownSpec)
	if !ok || b.Word != "comand" || len(b.Parts) != 3 {
		t.Fatalf("unknown-type spec %#v", w.States["b"].Spec)
	}
	want := []workflow.Spec{
		&workflow.CommandSpec{Command: "make {{.inputs.x}}", Dir: "d"},
		&workflow.AgentSpec{Prompt: "p"},
		&workflow.TerminalSpec{Status: workflow.StatusFailure},
	}
	if !reflect.DeepEqual(b.Parts, want) {
		t.Errorf("parts %#v", b.Parts)
	}
	if c, ok := w.States["c"].Spec.(*workflow.UnknownSpec); !ok || c.Word != "" || len(c.Parts) != 1 {
		t.Errorf("no-type spec %#v", w.States["c"].Spec)
	}
	if got := w.States["d"].Terminal(); got == nil || got.Status != workflow.StatusSuccess {
		t.Errorf("terminal default %#v", got)
	}
	if got := w.States["e"].Terminal(); got == nil || got.Status != workflow.StatusFailure || got.Message != "m" {
		t.Errorf("terminal %#v", got)
	}
	var codes []string
	for _, d := range ds {
		codes = append(codes, d.Code)
	}
	wantCodes := []string{fault.UserWorkflowKeyNotAllowed, fault.UserWorkflowUnreachableState, fault.UserWorkflowUnknownStateType, fault.UserTemplateUnknownInput,
		fault.UserWorkflowMissingStateType, fault.UserWorkflowUnreachableState, fault.UserWorkflowUnreachableState}
	if !reflect.DeepEqual(codes, wantCodes) {
		t.Errorf("codes %v\nwant  %v\n%v", codes, wantCodes, ds)
	}
}
