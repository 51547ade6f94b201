package run

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
)

const parHead = `name: t
states:
  initial: par
  after:
    type: command
    command: 'echo "{{.states.a.Status}} {{.states.b.Status}} {{.states.a.Output}}{{.states.b.Output}}"'
    on_success: done
  handle:
    type: command
    command: 'echo "handled {{.states.par.ExitCode}}"'
    on_success: done
  done: {type: terminal}
`

// branchEnds are the finished branch events, by name, with their status and error.
func branchEnds(events []Event) map[string]StepResult {
	out := map[string]StepResult{}
	for _, e := range events {
		if f, ok := e.(StepFinished); ok && f.Step.Within != "" {
			out[f.Step.Name] = f.Step
		}
	}
	return out
}

func TestParallel(t *testing.T) {
	tests := []struct {
		name     string
		par      string
		a, b     string
		next     string
		after    string
		branches map[string]string // branch → status, and a word of its error
	}{
		{"all_succeed: every branch succeeds", "strategy: all_succeed", "echo A", "echo B", "after", "success success AB",
			map[string]string{"a": "success", "b": "success"}},
		{"the default strategy is all_succeed: the first failure cancels the rest", "", "exit 3", "sleep 30", "handle", "handled 3",
			map[string]string{"a": "failure exit code 3", "b": "failure branch \"a\" failed first"}},
		{"any_succeed: the first success cancels the rest", "strategy: any_succeed", "sleep 30", "echo B", "after", "failure success B",
			map[string]string{"a": "failure branch \"b\" succeeded first", "b": "success"}},
		{"any_succeed fails when every branch fails", "strategy: any_succeed", "exit 2", "exit 3", "handle", "handled 2",
			map[string]string{"a": "failure", "b": "failure"}},
		{"best_effort runs everything and succeeds anyway", "strategy: best_effort", "exit 2", "echo B", "after", "failure success B",
			map[string]string{"a": "failure", "b": "success"}},
		{"max_concurrent 1 runs the branches one after the other", "max_concurrent: 1", "echo A", "echo B", "after", "success success AB",
			map[string]string{"a": "success", "b": "success"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := parHead + `
  par:
    type: parallel
    parallel: [a, b]
    ` + tt.par + `
    on_success: after
    on_failure: handle
  a: {type: command, command: '` + tt.a + `'}
  b: {type: command, command: '` + tt.b + `', on_success: done}
`
			start := time.Now()
			res, events, err := flowRun(t, context.Background(), src, nil)
			if err != nil || time.Since(start) > 20*time.Second {
				t.Fatalf("err %v after %s", err, time.Since(start))
			}
			var par StepResult
			for _, s := range res.Steps {
				if s.Name == "par" {
					par = s
				}
			}
			if par.Next != tt.next {
				t.Errorf("par went to %q (%s), want %q", par.Next, par.Error, tt.next)
			}
			if got := outputs(res, tt.next); len(got) != 1 || got[0] != tt.after {
				t.Errorf("%s printed %q, want %q", tt.next, got, tt.after)
			}
			ends := branchEnds(events)
			for name, want := range tt.branches {
				st, word, _ := strings.Cut(want, " ")
				got := ends[name]
				if string(got.Status) != st || !strings.Contains(got.Error, word) || got.Within != "par" || got.Next != "" {
					t.Errorf("branch %s = %s %q within %q next %q, want %s %q", name, got.Status, got.Error, got.Within, got.Next, st, word)
				}
			}
		})
	}
}

// TestParallelOrder checks that with max_concurrent 1 each branch ends before the next starts,
// in the order listed, and that the parallel state's events frame its branches'.
func TestParallelOrder(t *testing.T) {
	_, events, err := flowRun(t, context.Background(), parHead+`
  par:
    type: parallel
    parallel: [a, b]
    max_concurrent: 1
    on_success: after
  a: {type: command, command: 'echo A'}
  b: {type: command, command: 'echo B'}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := stepTrace(events), "+par +a@par a=success> +b@par b=success> par=success>after +after after=success>done"; got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
}

// TestParallelInterrupt cancels the run while two branches sleep: both stop, the parallel
// state and the run end interrupted, and nothing is left running.
func TestParallelInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := 0
	stopper := observerFunc(func(e Event) {
		if s, ok := e.(StepStarted); ok && s.Within != "" {
			started++
			if started == 2 {
				cancel()
			}
		}
	})
	start := time.Now()
	res, events, err := flowRun(t, ctx, parHead+`
  par:
    type: parallel
    parallel: [a, b]
    on_success: after
  a: {type: command, command: 'sleep 30'}
  b: {type: command, command: 'sleep 30'}
`, nil, stopper)
	if fault.ExitCode(err) != fault.ExitInterrupted || res.Status != RunInterrupted || time.Since(start) > 20*time.Second {
		t.Fatalf("err %v status %s after %s", err, res.Status, time.Since(start))
	}
	ends := branchEnds(events)
	if len(ends) != 2 || ends["a"].Status != StepFailure || ends["b"].Status != StepFailure {
		t.Errorf("branches did not both end: %v", ends)
	}
	if last := events[len(events)-2]; !slices.Contains([]string{"par"}, last.(StepFinished).Step.Name) {
		t.Errorf("the parallel state did not finish last: %v", last)
	}
}

type observerFunc func(Event)

func (f observerFunc) Observe(e Event) { f(e) }

// TestFlowInsideFlow runs a parallel state whose branch is a loop, inside a loop: the branch's
// body steps carry the whole path and the results reach the states after.
func TestFlowInsideFlow(t *testing.T) {
	res, events, err := flowRun(t, context.Background(), `name: t
states:
  initial: outer
  outer:
    type: for_each
    items: [x]
    body: [par]
    on_complete: after
  par:
    type: parallel
    parallel: [inner, solo]
  inner:
    type: while
    while: loop.Index < 2
    body: [show]
  show: {type: command, command: 'echo {{.loop.Parent.Item}}{{.loop.Index}}'}
  solo: {type: command, command: 'echo solo {{.loop.Item}}'}
  after: {type: command, command: 'echo {{.states.show.Output}} {{.states.solo.Output}} {{.states.par.Status}}', on_success: done}
  done: {type: terminal}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range events {
		if s, ok := e.(StepStarted); ok && s.Name == "show" {
			paths = append(paths, s.Within)
		}
	}
	if strings.Join(paths, " ") != "outer[0]/par/inner[0] outer[0]/par/inner[1]" {
		t.Errorf("paths of show = %v", paths)
	}
	if got := outputs(res, "after"); len(got) != 1 || got[0] != "x1 solo x success" {
		t.Errorf("after printed %q", got)
	}
}

// TestParallelUnstarted: with max_concurrent 1 the first failure decides before the second
// branch starts; the second is reported cancelled and recorded as failed.
func TestParallelUnstarted(t *testing.T) {
	res, events, err := flowRun(t, context.Background(), parHead+`
  par:
    type: parallel
    parallel: [a, b]
    max_concurrent: 1
    on_success: after
    on_failure: after
  a: {type: command, command: 'exit 3'}
  b: {type: command, command: 'echo B'}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := stepTrace(events), "+par +a@par a=failure> b=failure> par=failure>after +after after=success>done"; got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	b := branchEnds(events)["b"]
	if !strings.Contains(b.Error, `branch "b" cancelled before it started: branch "a" failed first`) || b.Within != "par" || b.Type != "command" {
		t.Errorf("b = %+v", b)
	}
	if got := outputs(res, "after"); len(got) != 1 || got[0] != "failure failure " {
		t.Errorf("after printed %q", got)
	}
}
