package run

import (
	"context"
	"errors"
	"sync"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// members is the scheduler's side of Steps: it runs the states of wf as steps of a walk, so a
// loop's body states and a parallel state's branches get their own span, log lines, events,
// retry and timeout, as a step of the main flow does. log is the walk's log.
type members struct {
	s   *scheduler
	wf  *workflow.Workflow
	log *zap.Logger
}

// visitOf is a visit of state name of the workflow: the state and its kind's executor, its
// transitions followed.
func (m *members) visitOf(name string) (visit, error) {
	st := m.wf.States[name]
	if st == nil {
		return visit{}, fault.New(fault.SystemRunUnknownState, "state %q does not exist (validation should have caught this)", name)
	}
	x, err := executorFor(m.s.executors, st)
	if err != nil {
		return visit{}, err
	}
	return visit{st: st, x: x, m: m, log: m.log, follow: true}, nil
}

// Run implements Steps.
func (m *members) Run(ctx context.Context, name string, scope Scope) (Step, error) {
	return m.visit(ctx, name, scope, false)
}

// Follow implements Steps.
func (m *members) Follow(ctx context.Context, name string, scope Scope) (Step, error) {
	return m.visit(ctx, name, scope, true)
}

// Workflow implements Steps.
func (m *members) Workflow() *workflow.Workflow { return m.wf }

// Log implements Steps.
func (m *members) Log() *zap.Logger { return m.log }

// Skip implements Steps: the member is reported at once, failed with exit code -1, and recorded
// with only its status and exit code.
func (m *members) Skip(name string, scope Scope, why error) Step {
	sr := StepResult{Name: name, Status: StepFailure, ExitCode: -1, Within: scope.within(), Error: why.Error()}
	if st := m.wf.States[name]; st != nil {
		sr.Type = string(st.Type)
	}
	m.s.events.Observe(StepFinished{Step: sr})
	return Step{Result: sr, Scope: scope.WithState(name, StateData{ExitCode: -1, Status: string(StepFailure)})}
}

// visit runs member name as a step of its own, or replays it when a resumed run has its
// result. Its log lines say where in the loops and parallel states it runs.
func (m *members) visit(ctx context.Context, name string, scope Scope, follow bool) (Step, error) {
	v, err := m.visitOf(name)
	if err != nil {
		return Step{Scope: scope}, err
	}
	v.follow, v.log = follow, m.log.With(flowFields(scope)...)
	within := scope.within()
	if sr, ok := m.s.replay.take(within, name); ok {
		return m.replayed(v, sr, scope)
	}
	m.s.events.Observe(StepStarted{Name: name, Kind: string(v.st.Type), Within: within})
	sd, err := m.s.step(ctx, v, scope)
	sd.sr.Within = within
	if err != nil {
		err = cutShort(ctx, &sd.sr, err)
	}
	sr, scope, err := m.s.finish(v, sd, scope, err)
	return Step{Result: sr, Scope: scope}, err
}

// cutShort turns the error of a member stopped by the state running it (its timeout, or a
// parallel state's decision) into a failure of the member; any other error is returned as it is.
func cutShort(ctx context.Context, sr *StepResult, err error) error {
	var d *decided
	switch {
	case errors.Is(context.Cause(ctx), errStepTimeout):
		sr.Status, sr.ExitCode, sr.Error = StepFailure, -1, fault.New(fault.ExecutionStepTimeout, "step %q stopped: the state running it timed out", sr.Name).Error()
	case errors.As(context.Cause(ctx), &d):
		sr.Status, sr.ExitCode, sr.Error = StepFailure, -1, fault.New(fault.ExecutionParallelCancelled, "branch %q cancelled: %s", sr.Name, d.why).Error()
	default:
		return err
	}
	return nil
}

// decided is the cause a parallel state cancels its other branches with.
type decided struct{ why string }

func (d *decided) Error() string { return d.why }

// serialObserver delivers events one at a time: parallel branches report from their own
// goroutines, and observers (the result, the console) are written for one caller at a time.
type serialObserver struct {
	mu  sync.Mutex
	obs Observer
}

// Observe implements Observer.
func (o *serialObserver) Observe(e Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.obs.Observe(e)
}
