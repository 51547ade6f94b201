package run

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// TestFlowEdges covers the rarer ends: list and fractional items, a count that is no whole
// number, and a branch whose template does not render (it stops the run).
func TestFlowEdges(t *testing.T) {
	res, events, err := flowRun(t, context.Background(), loopHead+`
  each:
    type: for_each
    items: '[[1, "a"], 1.5, null, true]'
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo {{.loop.Item}}'}
  done: {type: terminal}
`, nil)
	if err != nil || strings.Join(outputs(res, "show"), "|") != `[1,"a"]|1.5|<nil>|true` {
		t.Errorf("items printed %q (%v, %s)", outputs(res, "show"), err, stepTrace(events))
	}

	res, _, _ = flowRun(t, context.Background(), loopHead+`
  each:
    type: while
    max_iterations: "{{.inputs.n}} / 3"
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo x'}
  done: {type: terminal}
`, nil)
	if e := res.Steps[0].Error; !strings.Contains(e, fault.ExecutionLoopMaxIterations) || !strings.Contains(e, `"2 / 3"`) {
		t.Errorf("fractional count error %q", e)
	}

	res, _, err = flowRun(t, context.Background(), `name: t
states:
  initial: par
  par:
    type: parallel
    parallel: [a, b]
    on_success: done
  a: {type: command, command: 'echo {{.states.b.Output}}'}
  b: {type: command, command: 'true'}
  done: {type: terminal}
`, nil)
	if fault.CodeOf(err) != fault.UserTemplateExec || res.Status != RunError {
		t.Errorf("a branch template that does not render: %v, %s", err, res.Status)
	}

	if (&decided{why: "because"}).Error() != "because" {
		t.Error("decided.Error")
	}
}
