// Package validate is the `awf validate` use case, also run before every `awf run`: load the
// workflow, apply every rule, and hand back all problems at once.
package validate

import (
	"context"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Check is an extra validation pass that needs the outside world (for example the live plugin
// registry). Checks run on every workflow that parsed, also one with other errors, so that all
// problems are reported in one run.
type Check func(ctx context.Context, wf *workflow.Workflow) fault.Diagnostics

// Service validates workflows.
type Service struct {
	Repo   ports.WorkflowRepository
	Checks []Check
}

// Report is the outcome of one validation.
type Report struct {
	Workflow    *workflow.Workflow
	Name        string
	File        string
	Diagnostics fault.Diagnostics
}

// Valid reports whether the workflow has no errors (warnings allowed).
func (r Report) Valid() bool { return !r.Diagnostics.HasErrors() }

// Validate finds and checks a workflow by name or path. The error is for when there is nothing to
// validate (no such workflow); problems inside the file are in the report.
func (s Service) Validate(ctx context.Context, nameOrPath string) (Report, error) {
	path, err := s.Repo.Resolve(nameOrPath)
	if err != nil {
		return Report{Name: nameOrPath}, err
	}
	wf, ds, err := s.Repo.Load(path)
	if err != nil {
		return Report{Name: nameOrPath, File: path}, err
	}
	rep := Report{Workflow: wf, Name: nameOrPath, File: path, Diagnostics: ds}
	if wf != nil {
		if wf.Name != "" {
			rep.Name = wf.Name
		}
		for _, check := range s.Checks {
			rep.Diagnostics = append(rep.Diagnostics, check(ctx, wf)...)
		}
	}
	rep.Diagnostics.Sort()
	return rep, nil
}
