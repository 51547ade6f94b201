package usecase

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
)

func TestValidateCheck(t *testing.T) {
	ok := validate.Report{Name: "flow", File: "/p/flow.yaml"}
	rep, err := Validate{Validator: &validator{rep: ok}}.Check(context.Background(), "flow")
	if err != nil || !reflect.DeepEqual(rep, ok) {
		t.Fatalf("Check = %+v, %v", rep, err)
	}

	pos := fault.Position{File: "/p/x.yaml", Line: 3, Column: 4}
	missing := fault.New(fault.UserWorkflowNotFound, "no workflow %q", "x").WithHint("run awf validate <path>").At(pos)
	v := &validator{err: missing}
	rep, err = Validate{Validator: v}.Check(context.Background(), "x")
	want := fault.Diagnostics{{Code: fault.UserWorkflowNotFound, Message: `no workflow "x"`, Hint: "run awf validate <path>", Severity: fault.SeverityError, Position: pos}}
	if !errors.Is(err, missing) || rep.Name != "x" || !reflect.DeepEqual(rep.Diagnostics, want) || v.target != "x" {
		t.Fatalf("Check of a missing workflow = %+v, %v", rep, err)
	}

	plain := errors.New("disk on fire")
	rep, err = Validate{Validator: &validator{err: plain}}.Check(context.Background(), "y")
	want = fault.Diagnostics{{Code: fault.SystemInternalUnexpected, Message: "disk on fire", Severity: fault.SeverityError}}
	if err != plain || !reflect.DeepEqual(rep.Diagnostics, want) {
		t.Fatalf("Check with an uncoded error = %+v, %v", rep, err)
	}
}
