package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// excerptLen bounds how much of a wrong value an error shows.
const excerptLen = 200

// forEachItems returns the items of a for_each state. A template that does not render stops
// the run; a value that is not a JSON list, or has more items than the cap, fails the loop with
// an error naming the state and showing the value.
func forEachItems(st *workflow.State, fe *workflow.ForEachSpec, scope Scope) ([]any, error) {
	var items []any
	if fe.IsList {
		items = make([]any, len(fe.ItemList))
		for i, it := range fe.ItemList {
			if text, ok := it.(string); ok {
				key := fmt.Sprintf("items[%d]", i)
				r, err := render(st.Name+"."+key, text, scope, st.ValueAt(key))
				if err != nil {
					return nil, Stop(err)
				}
				it = r
			}
			items[i] = itemValue(it)
		}
	} else {
		text, err := render(st.Name+".items", fe.Items, scope, st.ValueAt("items"))
		if err != nil {
			return nil, Stop(err)
		}
		list, ok := jsonItems(text)
		if !ok {
			return nil, fault.New(fault.ExecutionLoopItems, "items of for_each state %q is not a JSON list: %s", st.Name, excerpt(text)).
				WithHint(`items must be a YAML list or render to a JSON list such as ["a", "b"]`)
		}
		items = list
	}
	if len(items) > workflow.MaxIterationsCap {
		return nil, fault.New(fault.ExecutionLoopItems, "for_each state %q has %d items, more than the limit of %d", st.Name, len(items), workflow.MaxIterationsCap)
	}
	return items, nil
}

// jsonItems parses text as one JSON list, keeping whole numbers whole.
func jsonItems(text string) ([]any, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	list, ok := itemValue(v).(jsonList)
	return list, ok
}

// excerpt quotes a value for an error, cut to excerptLen bytes.
func excerpt(s string) string {
	if len(s) > excerptLen {
		return strconv.Quote(s[:excerptLen]) + fmt.Sprintf(" … (%d bytes)", len(s))
	}
	return strconv.Quote(s)
}

// maxIterations is the loop's max_iterations: written, computed (a template whose values are
// numbers, then an expression, at loop start), or the default (the cap for for_each, whose items bound it; 100
// for while). A computed one that is no whole number in range fails the loop.
func (l *loopRun) maxIterations(scope Scope) (int, error) {
	st, lp := l.st, l.lp
	if lp.MaxIterationsExpr == "" {
		switch {
		case lp.MaxIterations > 0:
			return lp.MaxIterations, nil
		case st.ForEach() != nil:
			return workflow.MaxIterationsCap, nil
		}
		return workflow.DefaultWhileIterations, nil
	}
	text, err := renderNumbers(st.Name+".max_iterations", lp.MaxIterationsExpr, scope, st.ValueAt("max_iterations"))
	if err != nil {
		return 0, Stop(err)
	}
	text = strings.TrimSpace(text)
	n, err := strconv.Atoi(text)
	if err != nil {
		n, err = l.exprs.count(text, scope.Data())
		if err != nil {
			var ee *ports.ExprError
			if !errors.As(err, &ee) {
				return 0, Stop(err)
			}
			return 0, fault.New(fault.ExecutionLoopMaxIterations, "max_iterations of state %q is %s, not a whole number: %v", st.Name, excerpt(text), err)
		}
	}
	if n < 1 || n > workflow.MaxIterationsCap {
		return 0, fault.New(fault.ExecutionLoopMaxIterations, "max_iterations of state %q is %d; it must be from 1 to %d", st.Name, n, workflow.MaxIterationsCap)
	}
	return n, nil
}

// count evaluates a count expression (a computed max_iterations), compiling it once per run.
func (c *exprCache) count(src string, vars map[string]any) (int, error) {
	key := "\x00count " + src
	c.mu.Lock()
	e, ok := c.compiled[key]
	c.mu.Unlock()
	if !ok {
		if c.compiler == nil {
			return 0, fault.New(fault.SystemRunSetup, "this run computes max_iterations but no expression compiler is wired")
		}
		var err error
		if e, err = c.compiler.Compile(src, ports.ExprInt); err != nil {
			return 0, err
		}
		c.mu.Lock()
		if c.compiled == nil {
			c.compiled = map[string]ports.Expression{}
		}
		c.compiled[key] = e
		c.mu.Unlock()
	}
	return e.Int(vars)
}
