package usecase

import (
	"context"

	"github.com/awf-dev/awf/internal/application/validate"
)

// Validate is `awf validate`: check a workflow without running it.
type Validate struct {
	Validator Validator
}

// Check returns the workflow's report. When validation could not run at all (no such workflow,
// an unreadable file), err says why and the report holds that one problem, so a caller that
// reports in JSON still has a report to print.
func (v Validate) Check(ctx context.Context, target string) (validate.Report, error) {
	rep, err := v.Validator.Validate(ctx, target)
	if err != nil {
		return validate.Report{Name: target, Diagnostics: diagnosticsOf(err)}, err
	}
	return rep, nil
}
