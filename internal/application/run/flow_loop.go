package run

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// loopExecutor runs for_each and while states: their body in order each iteration, through
// Steps, following the body states' transitions (to a body state: jump there; to the loop
// itself or nowhere: the next body state; elsewhere: leave the loop for it), checking while
// before and break_when after each iteration, at most max_iterations times.
//
// A body state that fails with no transition handling the failure fails the loop, which then
// follows its own on_failure. A loop that ends normally goes to on_complete (else on_success).
type loopExecutor struct{ exprs *exprCache }

// loopRun is one visit of a loop state: what it runs with, and its items (nil for while, whose
// length is -1: unknown) and iteration bound, read when it starts; cut says max_iterations left
// items out.
type loopRun struct {
	st     *workflow.State
	lp     *workflow.LoopSpec
	steps  Steps
	exprs  *exprCache
	items  []any
	length int
	limit  int
	cut    bool
}

// Execute implements Executor. Items or a bound that cannot be read fail the loop before its
// first iteration; a template that does not render stops the run. A for_each with
// max_concurrent above 1 runs its items side by side (flow_concurrent.go).
func (x loopExecutor) Execute(ctx context.Context, st *workflow.State, scope Scope, steps Steps) (Outcome, error) {
	l, err := x.start(st, scope, steps)
	if err != nil {
		return Outcome{Status: StepFailure, ExitCode: -1}, err
	}
	if fe := st.ForEach(); fe != nil && fe.MaxConcurrent > 1 && len(l.items) > 1 {
		return l.concurrent(ctx, scope, fe.MaxConcurrent)
	}
	return l.run(ctx, scope)
}

// start reads the loop's items and bound; for_each runs at most max_iterations of its items.
func (x loopExecutor) start(st *workflow.State, scope Scope, steps Steps) (*loopRun, error) {
	l := &loopRun{st: st, lp: st.Loop(), steps: steps, exprs: x.exprs, length: -1}
	if fe := st.ForEach(); fe != nil {
		items, err := forEachItems(st, fe, scope)
		if err != nil {
			return nil, err
		}
		l.items = items
	}
	limit, err := l.maxIterations(scope)
	if err != nil {
		return nil, err
	}
	l.limit = limit
	if l.items != nil {
		if len(l.items) > limit {
			steps.Log().Info("for_each runs only the first max_iterations items", zap.String("step", st.Name), zap.Int("items", len(l.items)), zap.Int("max_iterations", limit))
			l.items, l.cut = l.items[:limit], true
		}
		l.length = len(l.items)
	}
	return l, nil
}

// run iterates until the items or the bound run out, while stops holding, break_when holds,
// or a body state leaves the loop or fails it.
func (l *loopRun) run(ctx context.Context, scope Scope) (Outcome, error) {
	cur, n := scope, 0
	exhausted := l.cut
	for i := 0; l.items == nil || i < len(l.items); i++ {
		if err := ctx.Err(); err != nil {
			return Outcome{Status: StepFailure, Scope: &cur}, err
		}
		iter := cur.withLoop(l.st.Name, l.item(i), i, l.length)
		if i >= l.limit {
			// The bound is reached: the loop is exhausted unless its while would have
			// ended it here anyway.
			ok, err := l.enters(iter)
			exhausted = err == nil && ok
			break
		}
		if ok, err := l.enters(iter); err != nil || !ok {
			if err != nil {
				return Outcome{Status: StepFailure, ExitCode: -1, Output: iterations(n), Iterations: n, Scope: &cur}, err
			}
			break
		}
		n++
		after, res, err := l.iteration(ctx, iter)
		cur = after.withFlow(scope)
		if err == nil {
			err = ctx.Err() // the loop's own timeout, reported as the loop's
		}
		if err != nil {
			return Outcome{Status: StepFailure, Iterations: n, Scope: &cur}, err
		}
		if res.exit != "" || res.failed != nil {
			return l.left(n, res, &cur), nil
		}
		if stop, err := l.breaks(after); err != nil || stop {
			if err != nil {
				return Outcome{Status: StepFailure, Iterations: n, Scope: &cur}, err
			}
			break
		}
	}
	return l.ended(n, exhausted, &cur), nil
}

// ended is the Outcome of a loop that ran n iterations to its end: on_complete's way, unless it
// stopped at max_iterations with its condition unmet, which on_exhausted may route apart.
func (l *loopRun) ended(n int, exhausted bool, cur *Scope) Outcome {
	out := Outcome{Status: StepSuccess, Output: iterations(n), Iterations: n, Scope: cur}
	if !exhausted {
		return out
	}
	out.Exhausted, out.Note = true, l.exhaustedNote()
	l.steps.Log().Warn("loop reached max_iterations", zap.String("step", l.st.Name), zap.Int("max_iterations", l.limit))
	if l.lp.OnExhausted != "" {
		out.Then = GoTo(l.lp.OnExhausted)
	}
	return out
}

// exhaustedNote says in words why an exhausted loop stopped.
func (l *loopRun) exhaustedNote() string {
	switch w := l.st.While(); {
	case l.lp.BreakWhen != "":
		return fmt.Sprintf("stopped at max_iterations %d without break_when", l.limit)
	case l.items != nil:
		return fmt.Sprintf("stopped at max_iterations %d, leaving items out", l.limit)
	case w != nil && strings.TrimSpace(w.While) != "":
		return fmt.Sprintf("stopped at max_iterations %d with while still holding", l.limit)
	}
	return fmt.Sprintf("stopped at max_iterations %d", l.limit)
}

// item is the item of iteration i, nil for while.
func (l *loopRun) item(i int) any {
	if l.items == nil {
		return nil
	}
	return l.items[i]
}

// enters checks while before an iteration: no while, or a blank one, always enters.
func (l *loopRun) enters(iter Scope) (bool, error) {
	w := l.st.While()
	if w == nil || strings.TrimSpace(w.While) == "" {
		return true, nil
	}
	return l.holds("while", w.While, iter)
}

// breaks checks break_when after an iteration. One that cannot be evaluated does not break:
// only an error that stops the run is returned.
func (l *loopRun) breaks(after Scope) (bool, error) {
	if l.lp.BreakWhen == "" {
		return false, nil
	}
	ok, err := l.holds("break_when", l.lp.BreakWhen, after)
	if _, stop := stopped(err); stop {
		return false, err
	}
	return ok, nil
}

// left is the loop's Outcome when an iteration ended early: for the state a body state's
// transition leads to, failed when that body state failed.
func (l *loopRun) left(n int, res iterationEnd, cur *Scope) Outcome {
	out := Outcome{Status: StepSuccess, Output: iterations(n), Iterations: n, Then: GoTo(res.exit), Scope: cur}
	if res.failed != nil {
		out.Status, out.ExitCode, out.Error = StepFailure, res.failed.ExitCode, bodyFailure(l.st, *res.failed)
	}
	return out
}

// iterations is a loop's output, worded as the reference awf words it.
func iterations(n int) string { return fmt.Sprintf("completed %d iterations", n) }

// iterationEnd is how an iteration ended besides running to the end of the body: leaving the
// loop for exit, or by failed, the body state that failed.
type iterationEnd struct {
	exit   string
	failed *StepResult
}

// iteration runs the body once.
func (l *loopRun) iteration(ctx context.Context, scope Scope) (Scope, iterationEnd, error) {
	body := l.lp.Body
	for j := 0; j < len(body); {
		step, err := l.steps.Follow(ctx, body[j], scope)
		scope = step.Scope
		if err != nil {
			return scope, iterationEnd{}, err
		}
		sr := step.Result
		next := sr.Next
		// A failure the body state continues past (continue_on_error) is recorded and goes
		// on as a success does, as it does outside a loop.
		failed := sr.Status == StepFailure && !continues(l.steps.Workflow(), body[j])
		k := slices.Index(body, next)
		switch {
		case k >= 0:
			j = k
		case next != "" && next != l.st.Name && l.steps.Workflow().States[next] != nil:
			end := iterationEnd{exit: next}
			if failed {
				end.failed = &sr
			}
			return scope, end, nil
		case failed && next == "":
			return scope, iterationEnd{failed: &sr}, nil
		default:
			j++
		}
	}
	return scope, iterationEnd{}, nil
}

// continues reports whether state name of wf continues past its failures (continue_on_error).
func continues(wf *workflow.Workflow, name string) bool {
	st := wf.States[name]
	return st != nil && st.ContinuesOnError()
}

func bodyFailure(st *workflow.State, sr StepResult) string {
	return fault.New(fault.ExecutionLoopBodyFailed, "body state %q of loop %q failed: %s", sr.Name, st.Name, firstLine(sr.Error)).Error()
}

// holds evaluates a loop's while or break_when. States that have not run read as empty
// (nil), as in the reference awf, so `states.check.Output != "ready"` holds before check runs.
// A condition that cannot be evaluated here (a type error) is false, logged, and returned as
// the error that fails the loop, as in the reference (break_when ignores it: it does not
// break). Only an engine without expressions stops the run.
func (l *loopRun) holds(key, src string, scope Scope) (bool, error) {
	vars := scope.Data()
	states, _ := vars["states"].(map[string]any)
	for name := range l.steps.Workflow().States {
		if _, ran := states[name]; !ran {
			states[name] = StateData{}.nilFields()
		}
	}
	ok, err := l.exprs.holds(src, vars)
	if err != nil {
		var ee *ports.ExprError
		if !errors.As(err, &ee) {
			return false, Stop(err)
		}
		l.steps.Log().Warn("loop condition cannot be evaluated here; taken as false", zap.String("step", l.st.Name), zap.String(key, src), zap.Error(err))
		return false, fault.New(fault.ExecutionLoopCondition, "%s of state %q cannot be evaluated: %v", key, l.st.Name, err)
	}
	return ok, nil
}

// nilFields are the fields of a state that has not run: present, and empty.
func (StateData) nilFields() map[string]any {
	m := map[string]any{}
	for k := range (StateData{}).Fields() {
		m[k] = nil
	}
	return m
}
