package usecase

import (
	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
)

// PlanView is the view of `awf run --dry-run`; a RunView without it cannot show plans.
type PlanView interface {
	Plan(workflow string, plan []run.PlanStep)
}

// dryRun shows what the run would do and runs nothing. Input problems are shown, and an input
// with no usable value is a placeholder (<inputs.NAME>) in the plan, so a plan can be read
// before every input is known; the exit code still says the inputs were wrong.
func (u Run) dryRun(rep validate.Report, inputs map[string]any, ids fault.Diagnostics) error {
	pv, ok := u.View.(PlanView)
	if !ok {
		return fault.New(fault.SystemInternalUnexpected, "this view cannot show a dry run's plan")
	}
	if ids.HasErrors() {
		u.View.InputProblems(ids.Errors())
	}
	for _, in := range rep.Workflow.Inputs {
		if _, ok := inputs[in.Name]; !ok {
			inputs[in.Name] = "<inputs." + in.Name + ">"
		}
	}
	plan := run.Plan(rep.Workflow, inputs, u.Env.Environ())
	for i := range plan {
		for j, l := range plan[i].Lines {
			plan[i].Lines[j] = u.Redactor.String(l)
		}
	}
	pv.Plan(rep.Workflow.Name, plan)
	if ids.HasErrors() {
		return &Reported{Code: fault.ExitUser}
	}
	return nil
}
