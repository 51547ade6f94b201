package run

import (
	"context"
	"slices"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// resumePoint is where a run starts: the initial state with nothing recorded for a new run; for
// a resumed one, the state it stopped in (or the one asked for) and the results of the states
// that had finished.
type resumePoint struct {
	state string
	done  []StepResult
}

// fill records the finished states' results in scope, in order, so later steps see
// `.states.<name>` as the interrupted run left them (the last result of a state wins).
func (at resumePoint) fill(scope Scope) Scope {
	for _, sr := range at.done {
		scope = scope.WithState(sr.Name, stateDataOf(sr))
	}
	return scope
}

// Resume continues a persisted run of wf at state from, with inputs already resolved and the
// results of the states that finished before (done, in the order they ran): those states are not
// executed again, their outputs are what templates see. The events are those of a run, so the
// same observers record and show it.
func (r *Runner) Resume(ctx context.Context, wf *workflow.Workflow, inputs map[string]any, from string, done []StepResult) (*Result, error) {
	if err := CheckResumeState(wf, from); err != nil {
		return &Result{RunID: r.opts.RunID, Workflow: wf.Name, Status: RunError}, err
	}
	return r.runFrom(ctx, wf, inputs, resumePoint{state: from, done: done})
}

// CheckResumeState fails with USER.RUN.UNKNOWN_STATE when wf has no state from, so a resume
// can be refused before it starts anything.
func CheckResumeState(wf *workflow.Workflow, from string) error {
	if _, ok := wf.States[from]; ok {
		return nil
	}
	names := make([]string, 0, len(wf.States))
	for n := range wf.States {
		names = append(names, n)
	}
	slices.Sort(names)
	return fault.New(fault.UserRunUnknownState, "workflow %q has no state %q to resume from", wf.Name, from).
		WithHint("%s", workflow.DidYouMean(from, names))
}
