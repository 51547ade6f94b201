package run

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/expr"
	"github.com/awf-dev/awf/internal/infrastructure/shell"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

// flowRun parses and validates a workflow, then runs it with the real shell and expressions in
// a temp root, temp HOME and temp TMPDIR. It returns the result, the events in order and the
// run's error.
func flowRun(t *testing.T, ctx context.Context, src string, inputs map[string]string, obs ...Observer) (*Result, []Event, error) {
	t.Helper()
	wf := parseFlow(t, src)
	root, home, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	rec := &syncRecorder{}
	r := newRun(t, Options{Commands: shell.Runner{Grace: 100 * time.Millisecond}, Expressions: expr.Compiler{}, Dir: root,
		Environ: []string{"HOME=" + home, "TMPDIR=" + tmp, "PATH=/usr/bin:/bin"}, Observer: observers(append([]Observer{rec}, obs...)), Wait: func(context.Context, time.Duration) error { return nil }})
	res, err := r.Run(ctx, wf, inputs)
	return res, rec.all(), err
}

func parseFlow(t *testing.T, src string) *workflow.Workflow {
	t.Helper()
	wf, ds := yamlrepo.Parse("wf.yaml", []byte(src))
	ds = append(ds, workflow.Validate(wf)...)
	if ds.HasErrors() {
		t.Fatalf("workflow does not validate:\n%v", ds)
	}
	return wf
}

// syncRecorder keeps events from any goroutine.
type syncRecorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *syncRecorder) Observe(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *syncRecorder) all() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// stepTrace renders step events as "+name@within" (started) and "name=status>next" (finished).
func stepTrace(events []Event) string {
	var out []string
	for _, e := range events {
		switch e := e.(type) {
		case StepStarted:
			s := "+" + e.Name
			if e.Within != "" {
				s += "@" + e.Within
			}
			out = append(out, s)
		case StepFinished:
			out = append(out, e.Step.Name+"="+string(e.Step.Status)+">"+e.Step.Next)
		}
	}
	return strings.Join(out, " ")
}

// outputs are the outputs of the finished steps named name, in order.
func outputs(res *Result, name string) []string {
	var out []string
	for _, s := range res.Steps {
		if s.Name == name {
			out = append(out, s.Output)
		}
	}
	return out
}

const loopHead = `name: t
inputs:
  - name: n
    type: integer
    default: 2
states:
  initial: each
`

func TestLoops(t *testing.T) {
	tests := []struct {
		name    string
		states  string
		inputs  map[string]string
		trace   string
		outputs map[string][]string
		status  string
		code    string
	}{
		{"for_each runs the body per item with the loop data", `
  each:
    type: for_each
    items: '["a", {"name": "b", "tags": [1, 2]}, 3]'
    body: [show]
    on_complete: done
  show:
    type: command
    command: 'echo "{{.loop.Item}} {{.loop.Index}} {{.loop.index1}} {{.loop.First}} {{.loop.Last}} {{.loop.Length}}"'
    on_success: each
  done: {type: terminal}
`, nil, "+each +show@each[0] show=success>each +show@each[1] show=success>each +show@each[2] show=success>each each=success>done",
			map[string][]string{"show": {"a 0 1 true false 3", `{"name":"b","tags":[1,2]} 1 2 false false 3`, "3 2 3 false true 3"}, "each": {"completed 3 iterations"}}, RunSuccess, ""},
		{"a YAML list with templates and object fields", `
  each:
    type: for_each
    items: ["{{.inputs.n}}x", {name: b}]
    body: [show]
    on_success: done
  show:
    type: command
    command: 'echo "{{.loop.Item}}{{if .loop.Last}} {{.loop.Item.name}}{{end}}"'
  done: {type: terminal}
`, nil, "+each +show@each[0] show=success> +show@each[1] show=success> each=success>done",
			map[string][]string{"show": {"2x", `{"name":"b"} b`}}, RunSuccess, ""},
		{"max_iterations takes the first items", `
  each:
    type: for_each
    items: '["a", "b", "c"]'
    max_iterations: "{{.inputs.n}} - 1"
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo {{.loop.Item}}', on_success: each}
  done: {type: terminal}
`, nil, "+each +show@each[0] show=success>each each=success>done", map[string][]string{"show": {"a"}}, RunSuccess, ""},
		{"break_when ends the loop after an iteration", `
  each:
    type: for_each
    items: '["a", "b", "c"]'
    break_when: 'states.show.Output == "b" && loop.Index == 1'
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo {{.loop.Item}}', on_success: each}
  done: {type: terminal}
`, nil, "+each +show@each[0] show=success>each +show@each[1] show=success>each each=success>done", nil, RunSuccess, ""},
		{"while runs while its condition holds, a state not yet run reading as nil", `
  each:
    type: while
    while: 'states.count.Output != "2"'
    body: [count]
    on_complete: done
  count: {type: command, command: 'echo {{.loop.Index}}; test {{.loop.Length}} = -1', on_success: each}
  done: {type: terminal}
`, nil, "+each +count@each[0] count=success>each +count@each[1] count=success>each +count@each[2] count=success>each each=success>done",
			map[string][]string{"count": {"0", "1", "2"}}, RunSuccess, ""},
		{"while without a condition stops at max_iterations", `
  each:
    type: while
    max_iterations: 2
    body: [count]
    on_complete: done
  count: {type: command, command: 'echo {{.loop.Index1}}'}
  done: {type: terminal}
`, nil, "+each +count@each[0] count=success> +count@each[1] count=success> each=success>done", map[string][]string{"count": {"1", "2"}}, RunSuccess, ""},
		{"a transition inside the body skips a state", `
  each:
    type: for_each
    items: '["a", "b"]'
    body: [check, fix, report]
    on_complete: done
  check:
    type: command
    command: 'echo {{.loop.Item}}'
    transitions:
      - when: 'states.check.Output == "a"'
        goto: report
      - goto: fix
  fix: {type: command, command: 'echo fixing', on_success: each}
  report: {type: command, command: 'echo report', on_success: each}
  done: {type: terminal}
`, nil, "+each +check@each[0] check=success>report +report@each[0] report=success>each +check@each[1] check=success>fix +fix@each[1] fix=success>each +report@each[1] report=success>each each=success>done", nil, RunSuccess, ""},
		{"a transition out of the body leaves the loop for its target", `
  each:
    type: for_each
    items: '["a", "b"]'
    body: [check]
    on_complete: done
  check:
    type: command
    command: 'echo {{.loop.Item}}'
    transitions:
      - when: 'states.check.Output == "a"'
        goto: early
      - goto: each
  early: {type: command, command: 'echo early {{.states.check.Output}} {{.states.each.Output}}', on_success: done}
  done: {type: terminal}
`, nil, "+each +check@each[0] check=success>early each=success>early +early early=success>done", map[string][]string{"early": {"early a completed 1 iterations"}}, RunSuccess, ""},
		{"a failed body state without handling fails the loop, which follows on_failure", `
  each:
    type: for_each
    items: '["a", "b"]'
    body: [check]
    on_complete: done
    on_failure: handle
  check: {type: command, command: 'echo {{.loop.Item}}; exit 4', on_success: each}
  handle: {type: command, command: 'echo {{.states.each.Status}} {{.states.each.ExitCode}}', on_success: done}
  done: {type: terminal}
`, nil, "+each +check@each[0] check=failure> each=failure>handle +handle handle=success>done", map[string][]string{"handle": {"failure 4"}}, RunSuccess, ""},
		{"on_failure back to the loop goes on with the next body state", `
  each:
    type: while
    while: 'loop.Index < 2'
    body: [try, after]
    on_complete: done
  try: {type: command, command: 'exit 1', on_failure: each}
  after: {type: command, command: 'echo after {{.states.try.ExitCode}}'}
  done: {type: terminal}
`, nil, "+each +try@each[0] try=failure>each +after@each[0] after=success> +try@each[1] try=failure>each +after@each[1] after=success> each=success>done", nil, RunSuccess, ""},
		{"on_failure out of the body leaves the loop failed", `
  each:
    type: for_each
    items: '["a"]'
    body: [try]
    on_complete: done
  try: {type: command, command: 'exit 5', on_failure: bad}
  bad: {type: terminal, status: failure}
  done: {type: terminal}
`, nil, "+each +try@each[0] try=failure>bad each=failure>bad", nil, RunFailure, fault.WorkflowRunFailed},
		{"a loop failing without on_failure fails the run", `
  each:
    type: for_each
    items: '["a"]'
    body: [try]
    on_complete: done
  try: {type: command, command: 'exit 5'}
  done: {type: terminal}
`, nil, "+each +try@each[0] try=failure> each=failure>", nil, RunFailure, fault.WorkflowRunFailed},
		{"nested loops see their parent", `
  each:
    type: for_each
    items: '["x", "y"]'
    body: [inner]
    on_complete: done
  inner:
    type: for_each
    items: '[1, 2]'
    body: [show]
    on_complete: each
  show: {type: command, command: 'echo {{.loop.Parent.Item}}{{.loop.Item}} {{.loop.parent.index}}', on_success: inner}
  done: {type: terminal}
`, nil, "+each +inner@each[0] +show@each[0]/inner[0] show=success>inner +show@each[0]/inner[1] show=success>inner inner=success>each +inner@each[1] +show@each[1]/inner[0] show=success>inner +show@each[1]/inner[1] show=success>inner inner=success>each each=success>done",
			map[string][]string{"show": {"x1 0", "x2 0", "y1 1", "y2 1"}}, RunSuccess, ""},
		{"items that are not a JSON list fail the loop with the value shown", `
  each:
    type: for_each
    items: '{{print "a, b"}}'
    body: [show]
    on_complete: done
    on_failure: handle
  show: {type: command, command: 'echo {{.loop.Item}}'}
  handle: {type: command, command: 'echo handled', on_success: done}
  done: {type: terminal}
`, nil, "+each each=failure>handle +handle handle=success>done", nil, RunSuccess, ""},
		{"a computed max_iterations out of range fails the loop", `
  each:
    type: while
    max_iterations: "{{.inputs.n}} * 10000"
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo x'}
  done: {type: terminal}
`, nil, "+each each=failure>", nil, RunFailure, fault.WorkflowRunFailed},
		{"continue_on_error in a body state goes on as it does outside a loop", `
  each:
    type: for_each
    items: '["a", "b"]'
    body: [try, after]
    on_complete: done
  try: {type: command, command: 'exit 5', continue_on_error: true}
  after: {type: command, command: 'echo after {{.loop.Item}} {{.states.try.ExitCode}}'}
  done: {type: terminal}
`, nil, "+each +try@each[0] try=failure> +after@each[0] after=success> +try@each[1] try=failure> +after@each[1] after=success> each=success>done",
			map[string][]string{"after": {"after a 5", "after b 5"}}, RunSuccess, ""},
		{"a while stopped at max_iterations is exhausted and on_exhausted routes it", `
  each:
    type: while
    max_iterations: 2
    break_when: 'states.try.Output == "green"'
    body: [try]
    on_complete: done
    on_exhausted: gave_up
  try: {type: command, command: 'echo red'}
  gave_up: {type: command, command: 'echo {{.states.each.Exhausted}} {{.states.each.Iterations}}', on_success: done}
  done: {type: terminal}
`, nil, "+each +try@each[0] try=success> +try@each[1] try=success> each=success>gave_up +gave_up gave_up=success>done",
			map[string][]string{"gave_up": {"true 2"}}, RunSuccess, ""},
		{"a while whose break_when held is not exhausted", `
  each:
    type: while
    max_iterations: 2
    break_when: 'states.try.Output == "green"'
    body: [try]
    on_complete: done
    on_exhausted: gave_up
  try: {type: command, command: 'echo green'}
  gave_up: {type: command, command: 'echo no', on_success: done}
  done: {type: command, command: 'echo {{.states.each.Exhausted}} {{.states.each.Iterations}}', on_success: end}
  end: {type: terminal}
`, nil, "+each +try@each[0] try=success> each=success>done +done done=success>end",
			map[string][]string{"done": {"false 1"}}, RunSuccess, ""},
		{"a while whose condition ends it at the bound is not exhausted", `
  each:
    type: while
    while: 'loop.index < 2'
    max_iterations: 2
    body: [try]
    on_complete: done
    on_exhausted: gave_up
  try: {type: command, command: 'echo x'}
  gave_up: {type: command, command: 'echo no', on_success: done}
  done: {type: terminal}
`, nil, "+each +try@each[0] try=success> +try@each[1] try=success> each=success>done", nil, RunSuccess, ""},
		{"an exhausted loop without on_exhausted goes to on_complete", `
  each:
    type: for_each
    items: '["a", "b", "c"]'
    max_iterations: 2
    body: [try]
    on_complete: done
  try: {type: command, command: 'echo x'}
  done: {type: command, command: 'echo {{.states.each.exhausted}}', on_success: end}
  end: {type: terminal}
`, nil, "+each +try@each[0] try=success> +try@each[1] try=success> each=success>done +done done=success>end",
			map[string][]string{"done": {"true"}}, RunSuccess, ""},
		{"an empty list runs nothing", `
  each:
    type: for_each
    items: '[]'
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo x'}
  done: {type: terminal}
`, nil, "+each each=success>done", map[string][]string{"each": {"completed 0 iterations"}}, RunSuccess, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, events, err := flowRun(t, context.Background(), loopHead+tt.states, tt.inputs)
			if got := stepTrace(events); got != tt.trace {
				t.Errorf("events\n got %s\nwant %s", got, tt.trace)
			}
			for name, want := range tt.outputs {
				if got := outputs(res, name); strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("outputs of %s = %q, want %q", name, got, want)
				}
			}
			if res.Status != tt.status || fault.CodeOf(err) != tt.code {
				t.Errorf("status %s err %v, want %s %q", res.Status, err, tt.status, tt.code)
			}
		})
	}
}

func TestLoopErrors(t *testing.T) {
	res, _, _ := flowRun(t, context.Background(), loopHead+`
  each:
    type: for_each
    items: '{{.inputs.n}}{"not": "a list"}'
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo x'}
  done: {type: terminal}
`, nil)
	e := res.Steps[0].Error
	if !strings.Contains(e, fault.ExecutionLoopItems) || !strings.Contains(e, `"each"`) || !strings.Contains(e, `2{\"not\": \"a list\"}`) {
		t.Errorf("items error = %q", e)
	}
	long := strings.Repeat("x", 500)
	res, _, _ = flowRun(t, context.Background(), loopHead+`
  each:
    type: for_each
    items: '{{print "`+long+`"}}'
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo x'}
  done: {type: terminal}
`, nil)
	if e := res.Steps[0].Error; !strings.Contains(e, "… (500 bytes)") || strings.Contains(e, long) {
		t.Errorf("a long value is not cut: %q", e)
	}
	_, _, err := flowRun(t, context.Background(), loopHead+`
  each:
    type: for_each
    items: '{{.states.nothing.Output}}'
    body: [show]
    on_complete: done
    on_failure: nothing
  nothing: {type: command, command: 'true', on_success: each}
  show: {type: command, command: 'echo x'}
  done: {type: terminal}
`, nil)
	if fault.CodeOf(err) != fault.UserTemplateExec {
		t.Errorf("a template that does not render stops the run: %v", err)
	}
}

// TestLoopTimeout: a loop's timeout stops its body step and is reported as the loop's.
func TestLoopTimeout(t *testing.T) {
	start := time.Now()
	res, events, _ := flowRun(t, context.Background(), loopHead+`
  each:
    type: while
    timeout: 300ms
    body: [nap]
    on_complete: done
    on_failure: done
  nap: {type: command, command: 'sleep 30'}
  done: {type: terminal}
`, nil)
	if time.Since(start) > 20*time.Second {
		t.Fatalf("the loop's timeout did not stop it: %s", time.Since(start))
	}
	if got := stepTrace(events); got != "+each +nap@each[0] nap=failure> each=failure>done" {
		t.Errorf("events %s", got)
	}
	if e := res.Steps[0].Error; !strings.Contains(e, `step "nap" stopped: the state running it timed out`) {
		t.Errorf("nap error %q", e)
	}
	if e := res.Steps[1].Error; !strings.Contains(e, `step "each" timed out after 300ms`) {
		t.Errorf("loop error %q", e)
	}
}

// TestLoopConditionErrors: a while condition that cannot be evaluated fails the loop; a
// break_when that cannot is only logged and does not break.
func TestLoopConditionErrors(t *testing.T) {
	res, events, _ := flowRun(t, context.Background(), loopHead+`
  each:
    type: while
    while: 'states.first.Output + 1 > 0'
    body: [first]
    on_complete: done
    on_failure: done
  first: {type: command, command: 'echo x'}
  done: {type: terminal}
`, nil)
	if got := stepTrace(events); got != "+each each=failure>done" {
		t.Errorf("events %s", got)
	}
	if e := res.Steps[0].Error; !strings.Contains(e, fault.ExecutionLoopCondition) || !strings.Contains(e, `while of state "each" cannot be evaluated`) {
		t.Errorf("while error %q", e)
	}
	_, events, _ = flowRun(t, context.Background(), loopHead+`
  each:
    type: for_each
    items: [1, 2]
    break_when: 'states.first.Output + 1 > 0'
    body: [first]
    on_complete: done
  first: {type: command, command: 'echo x'}
  done: {type: terminal}
`, nil)
	if got := stepTrace(events); got != "+each +first@each[0] first=success> +first@each[1] first=success> each=success>done" {
		t.Errorf("events %s", got)
	}
}
