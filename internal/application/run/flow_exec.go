package run

import (
	"context"
	"errors"
	"sync"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// flowExecutor stands in the executor table for the kinds that run other states (parallel,
// for_each, while). It cannot run on its own: the scheduler binds it to itself and the
// workflow before each visit (bind), so body and branch states run as real steps, with their
// own span, log lines, events, retry and timeout.
type flowExecutor struct{}

// Execute is only reached when the scheduler did not bind the executor, which is a bug.
func (flowExecutor) Execute(_ context.Context, st *workflow.State, _ Scope) (Outcome, error) {
	return Outcome{}, Stop(fault.New(fault.SystemInternalUnexpected, "the %s state %q ran without its scheduler", st.Type, st.Name))
}

// bind turns the flow placeholder into the executor of st's kind, working with s; any other
// executor is returned as it is.
func (s *scheduler) bind(x Executor, wf *workflow.Workflow, log *zap.Logger) Executor {
	if _, ok := x.(flowExecutor); !ok {
		return x
	}
	f := flowCtl{s: s, wf: wf, log: log}
	return flowRunner{f}
}

// flow is what the control-flow executors share: the scheduler that runs their members as
// steps, the workflow the members are found in, and the run's log.
type flowCtl struct {
	s   *scheduler
	wf  *workflow.Workflow
	log *zap.Logger
}

// flowRunner dispatches to the loop or the parallel runner by kind.
type flowRunner struct{ f flowCtl }

// Execute implements Executor.
func (r flowRunner) Execute(ctx context.Context, st *workflow.State, scope Scope) (Outcome, error) {
	if st.Parallel() != nil {
		return r.f.parallel(ctx, st, scope)
	}
	return r.f.loop(ctx, st, scope)
}

// visit runs one body or branch state as a step of its own: events, span, log, retry and
// timeout as for a step of the main flow. It returns the step's result (with Next, the state it
// asks to go to, when follow is set), the scope with its result recorded, and an error that
// must stop the run. A branch cancelled by its parallel state's decision is a failed step.
func (f flowCtl) visit(ctx context.Context, name string, scope Scope, follow bool) (StepResult, Scope, error) {
	st := f.wf.States[name]
	if st == nil {
		return StepResult{}, scope, fault.New(fault.SystemRunUnknownState, "state %q does not exist (validation should have caught this)", name)
	}
	x, err := executorFor(f.s.executors, st)
	if err != nil {
		return StepResult{}, scope, err
	}
	x = f.s.bind(x, f.wf, f.log)
	within := scope.within()
	if sr, ok := f.s.replay.take(within, st.Name); ok {
		return f.replayed(st, sr, scope, follow)
	}
	f.s.events.Observe(StepStarted{Name: st.Name, Kind: string(st.Type), Within: within})
	sr, err := f.s.step(ctx, st, x, scope, f.log.With(flowFields(scope)...))
	sr.Within = within
	if err != nil {
		var d *decided
		if errors.Is(context.Cause(ctx), errStepTimeout) {
			sr.Status, sr.ExitCode, sr.Error, err = StepFailure, -1, fault.New(fault.ExecutionStepTimeout, "step %q stopped: the state running it timed out", st.Name).Error(), nil
		} else if errors.As(context.Cause(ctx), &d) {
			sr.Status, sr.ExitCode, sr.Error, err = StepFailure, -1, fault.New(fault.ExecutionParallelCancelled, "branch %q cancelled: %s", st.Name, d.why).Error(), nil
		}
	}
	if sr.after != nil {
		scope = *sr.after
	}
	scope = withStep(scope, sr)
	if err != nil {
		sr.Status, sr.Error = StepFailure, err.Error()
		f.s.events.Observe(StepFinished{Step: sr})
		return sr, scope, err
	}
	if follow {
		sr.Next, err = f.s.next(st, sr.Status, scope, f.log)
		if sr.jump != "" {
			sr.Next = sr.jump
		}
	}
	f.s.events.Observe(StepFinished{Step: sr})
	return sr, scope, err
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
