package ports

import (
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// WorkflowSource loads the workflows that call_workflow states name. `awf validate` uses it to
// check the called workflows (their existence, their inputs, call cycles) and the run engine to
// run them, so both find the same file for the same name.
type WorkflowSource interface {
	// Callee resolves name as written in the workflow loaded from file `from` (beside that file
	// first, then among the project's workflows) and loads it. Problems inside the file are
	// diagnostics; the error is for when there is no such workflow (coded
	// USER.WORKFLOW.NOT_FOUND, its hint naming the closest available names) or no file to read.
	Callee(from, name string) (wf *workflow.Workflow, ds fault.Diagnostics, err error)
}
