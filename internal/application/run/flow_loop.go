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

// loop runs a for_each or while state: its body in order each iteration, following the body
// states' transitions (to a body state: jump there; to the loop itself or nowhere: the next
// body state; elsewhere: leave the loop for it), checking while before and break_when after
// each iteration, at most max_iterations times.
//
// A body state that fails with no transition handling the failure fails the loop, which then
// follows its own on_failure. A loop that ends normally goes to on_complete (else on_success).
func (f flowCtl) loop(ctx context.Context, st *workflow.State, scope Scope) (Outcome, error) {
	lp := st.Loop()
	var items []any
	length := -1
	if fe := st.ForEach(); fe != nil {
		var fail string
		var err error
		items, fail, err = f.items(st, fe, scope)
		if err != nil || fail != "" {
			return Outcome{Status: StepFailure, ExitCode: -1, Error: fail}, err
		}
	}
	limit, fail, err := f.limit(st, lp, scope)
	if err != nil || fail != "" {
		return Outcome{Status: StepFailure, ExitCode: -1, Error: fail}, err
	}
	if items != nil {
		if len(items) > limit {
			f.log.Info("for_each runs only the first max_iterations items", zap.String("step", st.Name), zap.Int("items", len(items)), zap.Int("max_iterations", limit))
			items = items[:limit]
		}
		length = len(items)
	}
	cur := scope
	n := 0
	for i := 0; ; i++ {
		if items != nil && i >= len(items) {
			break
		}
		if i >= limit {
			f.log.Warn("loop reached max_iterations", zap.String("step", st.Name), zap.Int("max_iterations", limit))
			break
		}
		if err := ctx.Err(); err != nil {
			return Outcome{Status: StepFailure, Scope: &cur}, err
		}
		var item any
		if items != nil {
			item = items[i]
		}
		iter := cur.withLoop(st.Name, item, i, length)
		if w := st.While(); w != nil && strings.TrimSpace(w.While) != "" {
			ok, fail, err := f.holds(st, "while", w.While, iter)
			if err != nil || fail != "" {
				return Outcome{Status: StepFailure, ExitCode: -1, Error: fail, Output: iterations(n), Scope: &cur}, err
			}
			if !ok {
				break
			}
		}
		n++
		after, res, err := f.iteration(ctx, st, lp.Body, iter)
		cur = after.withFlow(scope)
		if err == nil {
			err = ctx.Err() // the loop's own timeout, reported as the loop's
		}
		if err != nil {
			return Outcome{Status: StepFailure, Scope: &cur}, err
		}
		if res.exit != "" || res.fail != "" {
			out := Outcome{Status: StepSuccess, Output: iterations(n), Next: res.exit, Scope: &cur, ExitCode: res.code}
			if res.fail != "" {
				out.Status, out.Error = StepFailure, res.fail
			}
			return out, nil
		}
		if lp.BreakWhen != "" {
			ok, _, err := f.holds(st, "break_when", lp.BreakWhen, after)
			if err != nil {
				return Outcome{Status: StepFailure, Scope: &cur}, err
			}
			if ok {
				break
			}
		}
	}
	return Outcome{Status: StepSuccess, Output: iterations(n), Scope: &cur}, nil
}

// iterations is a loop's output, worded as the reference awf words it.
func iterations(n int) string { return fmt.Sprintf("completed %d iterations", n) }

// iterationEnd is how an iteration ended besides running to the end of the body: leaving the
// loop for exit, or failing with fail (the failed body state's exit code in code).
type iterationEnd struct {
	exit, fail string
	code       int
}

// iteration runs the body once.
func (f flowCtl) iteration(ctx context.Context, st *workflow.State, body []string, scope Scope) (Scope, iterationEnd, error) {
	for j := 0; j < len(body); {
		sr, after, err := f.visit(ctx, body[j], scope, true)
		scope = after
		if err != nil {
			return scope, iterationEnd{}, err
		}
		next := sr.Next
		k := slices.Index(body, next)
		switch {
		case k >= 0:
			j = k
		case next != "" && next != st.Name && f.wf.States[next] != nil:
			end := iterationEnd{exit: next}
			if sr.Status == StepFailure {
				end.fail, end.code = bodyFailure(st, sr), sr.ExitCode
			}
			return scope, end, nil
		case sr.Status == StepFailure && next == "":
			return scope, iterationEnd{fail: bodyFailure(st, sr), code: sr.ExitCode}, nil
		default:
			j++
		}
	}
	return scope, iterationEnd{}, nil
}

func bodyFailure(st *workflow.State, sr StepResult) string {
	return fault.New(fault.ExecutionLoopBodyFailed, "body state %q of loop %q failed: %s", sr.Name, st.Name, firstLine(sr.Error)).Error()
}

// holds evaluates a loop's while or break_when. States that have not run read as empty
// (nil), as in the reference awf, so `states.check.Output != "ready"` holds before check runs.
// A condition that cannot be evaluated here (a type error) is false and logged, and for while
// also fail, which fails the loop, as in the reference: break_when then does not break. Only an
// engine without expressions stops the run.
func (f flowCtl) holds(st *workflow.State, key, src string, scope Scope) (ok bool, fail string, err error) {
	vars := scope.Data()
	states, _ := vars["states"].(map[string]any)
	for name := range f.wf.States {
		if _, ran := states[name]; !ran {
			states[name] = StateData{}.nilFields()
		}
	}
	ok, err = f.s.exprs.holds(src, vars)
	if err != nil {
		var ee *ports.ExprError
		if !errors.As(err, &ee) {
			return false, "", Stop(err)
		}
		f.log.Warn("loop condition cannot be evaluated here; taken as false", zap.String("step", st.Name), zap.String(key, src), zap.Error(err))
		return false, fault.New(fault.ExecutionLoopCondition, "%s of state %q cannot be evaluated: %v", key, st.Name, err).Error(), nil
	}
	return ok, "", nil
}

// nilFields are the fields of a state that has not run: present, and empty.
func (StateData) nilFields() map[string]any {
	m := map[string]any{}
	for k := range (StateData{}).Fields() {
		m[k] = nil
	}
	return m
}
