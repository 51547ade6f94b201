package usecase

import (
	"maps"

	"github.com/awf-dev/awf/internal/application/runinputs"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// overrideInputs replaces recorded inputs of a resumed run with the name=value overrides (the
// API's input_overrides): each typed and checked against the input the workflow declares, as
// `awf run --input` is, every problem reported at once; the other inputs keep their recorded
// values.
func (u Run) overrideInputs(rec *runrecord.Record, wf *workflow.Workflow, overrides []string) error {
	if len(overrides) == 0 {
		return nil
	}
	given, ds := runinputs.ParseInputFlags(overrides)
	u.Redactor.AddGiven(given)
	if ds.HasErrors() {
		return fault.New(ds[0].Code, "%s", ds[0].Message).WithHint("%s", ds[0].Hint)
	}
	only := *wf
	only.Inputs = nil
	for _, in := range wf.Inputs {
		if _, ok := given[in.Name]; ok {
			only.Inputs = append(only.Inputs, in)
		}
	}
	values, ids := runinputs.InputResolver{Paths: u.Paths, Root: u.Root}.Resolve(&only, given)
	if ids.HasErrors() {
		u.View.InputProblems(ids.Errors())
		return &Reported{Code: fault.ExitUser}
	}
	inputs := maps.Clone(rec.Inputs)
	if inputs == nil {
		inputs = map[string]any{}
	}
	maps.Copy(inputs, values)
	rec.Inputs = inputs
	return nil
}
