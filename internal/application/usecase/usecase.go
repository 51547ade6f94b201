// Package usecase holds what awf's commands do, apart from how they are typed and shown:
// `awf validate` (Validate), `awf run` (Run) and `awf call` (Call). cmd/awf parses flags, wires
// the adapters in, prints and maps exit codes; everything it decides lives here.
package usecase

import (
	"context"
	"errors"
	"fmt"

	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
)

// Validator checks a workflow given by name or path; validate.Service is one.
type Validator interface {
	Validate(ctx context.Context, target string) (validate.Report, error)
}

// Reported is a failure the use case already showed the user through its view: the caller
// prints nothing more and exits with Code.
type Reported struct{ Code int }

// Error says which exit code the shown failure maps to.
func (e *Reported) Error() string { return fmt.Sprintf("exit %d", e.Code) }

// InvalidWorkflowError stops a use case whose workflow has errors; the report says which.
type InvalidWorkflowError struct{ Report validate.Report }

// Error names the workflow and how many errors it has.
func (e *InvalidWorkflowError) Error() string {
	return fmt.Sprintf("workflow %q is invalid: %d error(s)", e.Report.Name, len(e.Report.Diagnostics.Errors()))
}

// diagnosticsOf turns an error that stopped validation (no such workflow) into one diagnostic.
func diagnosticsOf(err error) fault.Diagnostics {
	var fe *fault.Error
	code := fault.SystemInternalUnexpected
	var hint string
	var pos fault.Position
	msg := err.Error()
	if errors.As(err, &fe) {
		code, hint, pos, msg = fe.Code, fe.Hint, fe.Pos, fe.Message
	}
	return fault.Diagnostics{{Code: code, Message: msg, Hint: hint, Severity: fault.SeverityError, Position: pos}}
}
