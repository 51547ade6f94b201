package usecase

import (
	"strings"

	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/workflow"
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
	// The plan shows values escaped for the shell, which can split a secret into pieces no mask
	// recognises; so the values are masked before they are placed, and the lines once more.
	u.mask(rep.Workflow, inputs)
	plan := run.Plan(rep.Workflow, maskedInputs(inputs, u.Redactor), maskedEnv(u.Env.Environ(), u.Redactor))
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

// maskedInputs returns inputs with every string in them masked, array items included (an
// integer prints as digits, which the lines' masking finds whole); inputs itself is left as it
// is.
func maskedInputs(inputs map[string]any, red *redact.Redactor) map[string]any {
	out := make(map[string]any, len(inputs))
	for k, v := range inputs {
		if l, ok := v.(workflow.InputList); ok {
			items, _ := red.Value([]any(l)).([]any)
			out[k] = workflow.InputList(items)
			continue
		}
		out[k] = red.Value(v)
	}
	return out
}

// maskedEnv is environ with each value masked, for a plan that places {{.env.X}}.
func maskedEnv(environ []string, red *redact.Redactor) []string {
	out := make([]string, len(environ))
	for i, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		out[i] = k + "=" + red.String(v)
	}
	return out
}
