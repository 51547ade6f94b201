package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// branchRun is one branch's end: its result, the scope of its Fork, and an error that stops
// the run.
type branchRun struct {
	sr      StepResult
	scope   Scope
	err     error
	started bool
}

// parallel runs a parallel state's branches at once, at most max_concurrent at a time, each in
// a Fork of the scope; their transitions are not followed. Branches start in the order listed.
// By strategy: all_succeed fails on the first failed branch and cancels the others;
// any_succeed succeeds on the first successful branch and cancels the others (failing only
// when all fail); best_effort lets every branch finish and succeeds whatever they did. It
// always waits for every branch it started, so no branch outlives the state. Afterwards each
// branch's results are visible as states.<branch>.
func (f flowCtl) parallel(ctx context.Context, st *workflow.State, scope Scope) (Outcome, error) {
	spec := st.Parallel()
	strategy := spec.EffectiveStrategy()
	bctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	limit := spec.MaxConcurrent
	if limit <= 0 || limit > len(spec.Branches) {
		limit = len(spec.Branches)
	}
	slots := make(chan struct{}, max(limit, 1))
	runs := make([]branchRun, len(spec.Branches))
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first = -1 // the branch that decided, under mu
	)
	decide := func(i int, why string) {
		mu.Lock()
		defer mu.Unlock()
		if first < 0 {
			first = i
			cancel(&decided{why: why})
		}
	}
launch:
	for i, name := range spec.Branches {
		select {
		case slots <- struct{}{}:
		case <-bctx.Done():
			break launch
		}
		if bctx.Err() != nil {
			<-slots
			break
		}
		runs[i].started = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			sr, sc, err := f.visit(bctx, name, scope.withBranch(st.Name), false)
			runs[i] = branchRun{sr: sr, scope: sc, err: err, started: true}
			switch {
			case err != nil:
			case strategy == workflow.AllSucceed && sr.Status == StepFailure:
				decide(i, fmt.Sprintf("branch %q failed first", name))
			case strategy == workflow.AnySucceed && sr.Status == StepSuccess:
				decide(i, fmt.Sprintf("branch %q succeeded first", name))
			}
		}()
	}
	wg.Wait()
	return f.parallelEnd(ctx, st, scope, strategy, runs, context.Cause(bctx))
}

// parallelEnd records the branches' results and judges them by the strategy.
func (f flowCtl) parallelEnd(ctx context.Context, st *workflow.State, scope Scope, strategy workflow.Strategy, runs []branchRun, cause error) (Outcome, error) {
	spec := st.Parallel()
	var ok, failed []string
	code := 0
	for i, r := range runs {
		if !r.started {
			r = f.unstarted(cause, st, scope, spec.Branches[i])
		}
		scope = scope.absorb(r.scope)
		if r.err != nil {
			if stop, isStop := stopped(r.err); isStop || ctx.Err() == nil {
				if stop == nil {
					stop = r.err
				}
				return Outcome{Status: StepFailure, Scope: &scope}, Stop(stop)
			}
			return Outcome{Status: StepFailure, Scope: &scope}, ctx.Err()
		}
		if r.sr.Status == StepSuccess {
			ok = append(ok, spec.Branches[i])
		} else {
			if len(failed) == 0 {
				code = r.sr.ExitCode
			}
			failed = append(failed, spec.Branches[i]+": "+firstLine(r.sr.Error))
		}
	}
	if err := ctx.Err(); err != nil {
		return Outcome{Status: StepFailure, Scope: &scope}, err
	}
	f.log.Info("parallel state ended", zap.String("step", st.Name), zap.String("strategy", string(strategy)),
		zap.Strings("succeeded", ok), zap.Int("failed", len(failed)))
	out := Outcome{Status: StepSuccess, Scope: &scope}
	switch {
	case strategy == workflow.AllSucceed && len(failed) > 0,
		strategy == workflow.AnySucceed && len(ok) == 0:
		out.Status, out.ExitCode = StepFailure, code
		if out.ExitCode == 0 {
			out.ExitCode = -1
		}
		out.Error = fault.New(fault.ExecutionParallelFailed, "parallel state %q (%s): %s", st.Name, strategy, strings.Join(failed, "; ")).Error()
	}
	return out, nil
}

// unstarted reports a branch the parallel state never started because it had already decided
// (or the run was interrupted): a failed step, so states.<branch> exists and says so.
func (f flowCtl) unstarted(cause error, st *workflow.State, scope Scope, name string) branchRun {
	why := "the run was interrupted"
	var d *decided
	if errors.As(cause, &d) {
		why = d.why
	}
	sr := StepResult{Name: name, Status: StepFailure, ExitCode: -1, Within: scope.withBranch(st.Name).within(),
		Error: fault.New(fault.ExecutionParallelCancelled, "branch %q cancelled before it started: %s", name, why).Error()}
	if b := f.wf.States[name]; b != nil {
		sr.Type = string(b.Type)
	}
	f.s.events.Observe(StepFinished{Step: sr})
	child := scope.withBranch(st.Name).WithState(name, StateData{ExitCode: -1, Status: string(StepFailure)})
	return branchRun{sr: sr, scope: child, started: true}
}
