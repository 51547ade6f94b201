package validate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// ExpressionCheck compiles every expression of every state at validate time (`when`, and the
// loops' `while`, `break_when` and computed `max_iterations`), so a run never meets an
// expression that does not compile, and checks the states, inputs and loop data each one reads:
// an expression about a state that does not exist would silently never hold.
func ExpressionCheck(c ports.ExprCompiler) Check {
	return func(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
		var ds fault.Diagnostics
		if wf == nil {
			return ds
		}
		inputs := make([]string, 0, len(wf.Inputs))
		for _, in := range wf.Inputs {
			inputs = append(inputs, in.Name)
		}
		nest := workflow.NewNesting(wf)
		for _, name := range wf.Order {
			st := wf.States[name]
			if st == nil {
				continue
			}
			for _, ex := range st.Expressions() {
				where := fmt.Sprintf("%s of state %q", ex.Key, st.Name)
				pos := st.ValueAt(ex.Key)
				kind := ports.ExprBool
				if ex.Count {
					kind = ports.ExprInt
				}
				depth := nest.LoopDepth(st.Name)
				if ex.OwnLoop {
					depth++
				}
				e, err := c.Compile(ex.Text, kind)
				if err != nil {
					var ee *ports.ExprError
					msg := err.Error()
					if errors.As(err, &ee) && ee.Line > 0 {
						msg = fmt.Sprintf("line %d, column %d: %s", ee.Line, ee.Column, ee.Message)
					}
					ds.Errorf(pos, fault.UserExprInvalid, "expressions read states.NAME.ExitCode|Output|…, inputs.NAME, env.NAME and workflow.name, e.g. `states.test.ExitCode == 0`",
						"%s does not compile: %s", where, msg)
					continue
				}
				for _, r := range e.Refs() {
					refCheck(&ds, pos, where, r, wf, inputs)
					loopCheck(&ds, pos, where, r, depth)
				}
			}
		}
		return ds
	}
}

// refCheck reports a reference to a state or input the workflow does not declare.
func refCheck(ds *fault.Diagnostics, pos fault.Position, where string, r ports.ExprRef, wf *workflow.Workflow, inputs []string) {
	if len(r.Path) < 2 {
		return
	}
	switch r.Path[0] {
	case "states":
		if wf.States[r.Path[1]] == nil {
			ds.Errorf(pos, fault.UserExprUnknownReference, suggest.DidYouMean(r.Path[1], wf.Order),
				"%s reads state %q, which the workflow does not have", where, r.Path[1])
		}
	case "inputs":
		if !slices.Contains(inputs, r.Path[1]) {
			ds.Errorf(pos, fault.UserExprUnknownReference, suggest.DidYouMean(r.Path[1], inputs),
				"%s reads input %q, which the workflow does not declare", where, r.Path[1])
		}
	}
}

// loopCheck reports an expression reading loop data where no loop runs, or a Parent beyond the
// loops around it.
func loopCheck(ds *fault.Diagnostics, pos fault.Position, where string, r ports.ExprRef, depth int) {
	if len(r.Path) == 0 || r.Path[0] != "loop" {
		return
	}
	if depth == 0 {
		ds.Errorf(pos, fault.UserExprLoopOutside, "read loop only in while, break_when, and the body states of a loop",
			"%s reads %s, but no loop runs here", where, strings.Join(r.Path, "."))
		return
	}
	if ok, msg := workflow.LoopPathOK(r.Path[1:], depth); !ok {
		ds.Errorf(pos, fault.UserExprLoopOutside, "loop fields: Item, Index, Index1, First, Last, Length, Parent (or lowercase)",
			"%s reads %s: %s", where, strings.Join(r.Path, "."), msg)
	}
}
