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

// parallelExecutor runs a parallel state's branches at once through Steps, at most
// max_concurrent at a time, each in a Fork of the scope; their transitions are not followed.
// Branches start in the order listed. By strategy: all_succeed fails on the first failed branch
// and cancels the others; any_succeed succeeds on the first successful branch and cancels the
// others (failing only when all fail); best_effort lets every branch finish and succeeds
// whatever they did. It always waits for every branch it started, so no branch outlives the
// state. Afterwards each branch's results are visible as states.<branch>.
type parallelExecutor struct{}

// branchRun is one branch's end: the branch run as a step, and an error that stops the run.
type branchRun struct {
	step    Step
	err     error
	started bool
}

// parallelRun is one visit of a parallel state: its branches' ends, by the order listed, and
// the first branch that decided the state, under mu.
type parallelRun struct {
	st       *workflow.State
	spec     *workflow.ParallelSpec
	strategy workflow.Strategy
	steps    Steps
	runs     []branchRun
	mu       sync.Mutex
	first    int
	cancel   context.CancelCauseFunc
}

// Execute implements Executor.
func (parallelExecutor) Execute(ctx context.Context, st *workflow.State, scope Scope, steps Steps) (Outcome, error) {
	spec := st.Parallel()
	p := &parallelRun{st: st, spec: spec, strategy: spec.EffectiveStrategy(), steps: steps, runs: make([]branchRun, len(spec.Branches)), first: -1}
	bctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	p.cancel = cancel
	p.launch(bctx, scope)
	return p.end(ctx, scope, context.Cause(bctx))
}

// launch starts the branches in order as slots free up, until the state decides, and waits
// for every branch it started.
func (p *parallelRun) launch(bctx context.Context, scope Scope) {
	limit := p.spec.MaxConcurrent
	if limit <= 0 || limit > len(p.spec.Branches) {
		limit = len(p.spec.Branches)
	}
	slots := make(chan struct{}, max(limit, 1))
	var wg sync.WaitGroup
launch:
	for i, name := range p.spec.Branches {
		select {
		case slots <- struct{}{}:
		case <-bctx.Done():
			break launch
		}
		if bctx.Err() != nil {
			<-slots
			break
		}
		p.runs[i].started = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			p.branch(bctx, i, name, scope)
		}()
	}
	wg.Wait()
}

// branch runs branch i and, by the strategy, lets it decide the state.
func (p *parallelRun) branch(bctx context.Context, i int, name string, scope Scope) {
	step, err := p.steps.Run(bctx, name, scope.withBranch(p.st.Name))
	p.runs[i] = branchRun{step: step, err: err, started: true}
	switch {
	case err != nil:
	case p.strategy == workflow.AllSucceed && step.Result.Status == StepFailure:
		p.decide(i, fmt.Sprintf("branch %q failed first", name))
	case p.strategy == workflow.AnySucceed && step.Result.Status == StepSuccess:
		p.decide(i, fmt.Sprintf("branch %q succeeded first", name))
	}
}

// decide makes branch i the one that decided the state, unless one did already, and cancels
// the others.
func (p *parallelRun) decide(i int, why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first < 0 {
		p.first = i
		p.cancel(&decided{why: why})
	}
}

// end records the branches' results and judges them by the strategy.
func (p *parallelRun) end(ctx context.Context, scope Scope, cause error) (Outcome, error) {
	var ok, failed []string
	code := 0
	for i, r := range p.runs {
		if !r.started {
			r = p.unstarted(cause, scope, p.spec.Branches[i])
		}
		scope = scope.absorb(r.step.Scope)
		if r.err != nil {
			if stop, isStop := stopped(r.err); isStop || ctx.Err() == nil {
				if stop == nil {
					stop = r.err
				}
				return Outcome{Status: StepFailure, Scope: &scope}, Stop(stop)
			}
			return Outcome{Status: StepFailure, Scope: &scope}, ctx.Err()
		}
		if r.step.Result.Status == StepSuccess {
			ok = append(ok, p.spec.Branches[i])
		} else {
			if len(failed) == 0 {
				code = r.step.Result.ExitCode
			}
			failed = append(failed, p.spec.Branches[i]+": "+firstLine(r.step.Result.Error))
		}
	}
	if err := ctx.Err(); err != nil {
		return Outcome{Status: StepFailure, Scope: &scope}, err
	}
	return p.judge(ok, failed, code, &scope), nil
}

// judge is the state's Outcome by its strategy, from the branches that succeeded and the
// failures of the others (code: the exit code of the first failed one).
func (p *parallelRun) judge(ok, failed []string, code int, scope *Scope) Outcome {
	p.steps.Log().Info("parallel state ended", zap.String("step", p.st.Name), zap.String("strategy", string(p.strategy)),
		zap.Strings("succeeded", ok), zap.Int("failed", len(failed)))
	out := Outcome{Status: StepSuccess, Scope: scope}
	switch {
	case p.strategy == workflow.AllSucceed && len(failed) > 0,
		p.strategy == workflow.AnySucceed && len(ok) == 0:
		out.Status, out.ExitCode = StepFailure, code
		if out.ExitCode == 0 {
			out.ExitCode = -1
		}
		out.Error = fault.New(fault.ExecutionParallelFailed, "parallel state %q (%s): %s", p.st.Name, p.strategy, strings.Join(failed, "; ")).Error()
	}
	return out
}

// unstarted reports a branch the parallel state never started because it had already decided
// (or the run was interrupted): a failed step, so states.<branch> exists and says so.
func (p *parallelRun) unstarted(cause error, scope Scope, name string) branchRun {
	why := "the run was interrupted"
	var d *decided
	if errors.As(cause, &d) {
		why = d.why
	}
	err := fault.New(fault.ExecutionParallelCancelled, "branch %q cancelled before it started: %s", name, why)
	return branchRun{step: p.steps.Skip(name, scope.withBranch(p.st.Name), err), started: true}
}
