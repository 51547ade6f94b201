package usecase

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// paths is a file system that holds only "/proj/here.txt".
type paths struct{ asked []string }

func (p *paths) Exists(path string) (bool, error) {
	p.asked = append(p.asked, path)
	return path == "/proj/here.txt", nil
}

// TestRunChecksFileInputsFromTheRoot: file_exists goes through the Paths port, relative paths
// from the project root, and a missing file stops the run before it starts.
func TestRunChecksFileInputsFromTheRoot(t *testing.T) {
	wf := flow(nil)
	wf.Inputs = append(wf.Inputs, workflow.Input{Name: "f", Type: workflow.InputArray, Validation: &workflow.InputRules{FileExists: true}})
	fx := newRun(validate.Report{Name: "flow", Workflow: wf})
	p := &paths{}
	fx.uc.Paths = p
	err := fx.uc.Do(context.Background(), RunRequest{Target: "flow", Inputs: []string{"f=here.txt", "f=/abs/gone"}})
	var rep *Reported
	if !errors.As(err, &rep) || rep.Code != fault.ExitUser || len(fx.view.inputs) != 1 || fx.view.inputs[0].Code != fault.UserInputFileNotFound {
		t.Fatalf("err %v, shown %v", err, fx.view.inputs)
	}
	if want := []string{"/proj/here.txt", "/abs/gone"}; !reflect.DeepEqual(p.asked, want) {
		t.Errorf("asked %v, want %v", p.asked, want)
	}
	if fx.ids != 0 {
		t.Error("a run was started")
	}
	p.asked = nil
	if err := fx.uc.Do(context.Background(), RunRequest{Target: "flow", Inputs: []string{"f=here.txt"}}); err != nil || fx.ids != 1 {
		t.Fatalf("existing file: %v, runs %d", err, fx.ids)
	}
}
