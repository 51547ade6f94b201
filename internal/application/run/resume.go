package run

import (
	"context"
	"slices"
	"sync"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// resumePoint is where a run starts: the initial state with nothing recorded for a new run; for
// a resumed one, the state it stopped in (or the one asked for) and the results of the states
// that had finished.
type resumePoint struct {
	state string
	done  []StepResult
}

// fill records the finished states of the main flow in scope, in order, so later steps see
// `.states.<name>` as the interrupted run left them (the last result of a state wins).
func (at resumePoint) fill(scope Scope) Scope {
	for _, sr := range at.done {
		if sr.Within == "" {
			scope = scope.WithState(sr.Name, stateDataOf(sr))
		}
	}
	return scope
}

// book holds the recorded successes of loop iterations and parallel branches (Within set),
// which a resumed run takes instead of running those steps again.
func (at resumePoint) book() *replayBook {
	b := &replayBook{m: map[string][]StepResult{}}
	for _, sr := range at.done {
		if sr.Within != "" && sr.Status == StepSuccess {
			k := sr.Within + "\x00" + sr.Name
			b.m[k] = append(b.m[k], sr)
		}
	}
	return b
}

// replayBook is what a resumed run already knows of its loops and parallel states: for each
// (iteration or branch, state), the successful results recorded, in order. Each is taken once,
// so a body that visits a state twice replays both visits. A failed or stopped sub-step is not
// in it: it runs again. Branches take from it concurrently.
type replayBook struct {
	mu sync.Mutex
	m  map[string][]StepResult
}

// take returns the next recorded result of state name within, if any.
func (b *replayBook) take(within, name string) (StepResult, bool) {
	if b == nil {
		return StepResult{}, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	k := within + "\x00" + name
	q := b.m[k]
	if len(q) == 0 {
		return StepResult{}, false
	}
	b.m[k] = q[1:]
	return q[0], true
}

// Resume continues a persisted run of wf at state from, with inputs already resolved and the
// results of the states that finished before (done, in the order they ran): those states are not
// executed again, their outputs are what templates see. Results of loop iterations and parallel
// branches (Within set) are replayed when the resumed run reaches the same iteration or branch,
// so a loop interrupted half-way does not redo its finished iterations. The events are those of a run, so the
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
		WithHint("%s", suggest.DidYouMean(from, names))
}

// replayed stands for visit when a resumed run already has the step's result: nothing runs and
// no event is sent (the run's record holds the step already); the scope and the next state are
// what they were.
func (m *members) replayed(v visit, sr StepResult, scope Scope) (Step, error) {
	scope = withStep(scope, sr)
	var err error
	if v.follow {
		sr.Next, err = m.s.next(v.st, sr.Status, scope, m.log)
	}
	return Step{Result: sr, Scope: scope}, err
}
