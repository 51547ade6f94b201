package run

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/expr"
	"github.com/awf-dev/awf/internal/infrastructure/shell"
)

// concurrentLoop is a for_each over six items whose show waits, up to 10 s, until as many items
// have started as its need says: three for the first three, six for the others. Run one at a
// time, the first item would wait alone and fail; three at a time, each batch meets. check then
// reads show's output after a pause, so iterations that shared a scope would read each other's.
func concurrentLoop(marks string) string {
	return loopHead + `
  each:
    type: for_each
    items: '[{"n": "a", "need": 3}, {"n": "b", "need": 3}, {"n": "c", "need": 3}, {"n": "d", "need": 6}, {"n": "e", "need": 6}, {"n": "f", "need": 6}]'
    max_concurrent: 3
    body: [show, check]
    on_complete: done
  show:
    type: command
    command: |
      touch "` + marks + `/{{.loop.Index}}"
      i=0
      while [ "$(ls "` + marks + `" | wc -l)" -lt "{{.loop.Item.need}}" ]; do
        i=$((i+1)); [ "$i" -lt 200 ] || exit 9; sleep 0.05
      done
      echo "{{.loop.Item.n}}"
  check: {type: command, command: 'sleep 0.1; echo "{{.loop.Item.n}}={{.states.show.Output}}"'}
  done: {type: command, command: 'echo "{{.states.show.Output}} {{.states.each.Iterations}}"', on_success: end}
  end: {type: terminal}
`
}

// TestForEachMaxConcurrentRunsItemsSideBySide: max_concurrent 3 runs three items at once (each
// batch of three meets at its barrier, which one item alone never passes); each body reads its
// own iteration's results, every iteration is recorded with its index, and after the loop the
// states hold the last item's results.
func TestForEachMaxConcurrentRunsItemsSideBySide(t *testing.T) {
	res, events, err := flowRun(t, context.Background(), concurrentLoop(t.TempDir()), nil)
	if err != nil || res.Status != RunSuccess {
		t.Fatalf("status %s, err %v; steps %+v", res.Status, err, res.Steps)
	}
	checks := outputs(res, "check")
	slices.Sort(checks)
	if want := []string{"a=a", "b=b", "c=c", "d=d", "e=e", "f=f"}; !slices.Equal(checks, want) {
		t.Errorf("check outputs %q, want each iteration to read its own show: %q", checks, want)
	}
	if got := outputs(res, "done"); len(got) != 1 || got[0] != "f 6" {
		t.Errorf("after the loop: %q, want the last item's output and 6 iterations", got)
	}
	var within []string
	for _, e := range events {
		if s, ok := e.(StepStarted); ok && s.Name == "show" {
			within = append(within, s.Within)
		}
	}
	slices.Sort(within)
	if strings.Join(within, " ") != "each[0] each[1] each[2] each[3] each[4] each[5]" {
		t.Errorf("show ran within %q", within)
	}
}

// TestForEachMaxConcurrentFailureStopsNewItems: a failed body state fails the loop as it does
// one item at a time; items not started by then never start.
func TestForEachMaxConcurrentFailureStopsNewItems(t *testing.T) {
	res, _, err := flowRun(t, context.Background(), loopHead+`
  each:
    type: for_each
    items: '[1, 2, 3, 4, 5, 6, 7, 8]'
    max_concurrent: 2
    body: [try]
    on_complete: done
    on_failure: failed
  try: {type: command, command: 'if [ "{{.loop.Item}}" = 2 ]; then exit 4; fi; sleep 0.3'}
  done: {type: terminal}
  failed: {type: terminal, status: failure}
`, nil)
	if res.Terminal != "failed" || fault.CodeOf(err) != fault.WorkflowRunFailed {
		t.Fatalf("terminal %q, err %v; want the loop to fail", res.Terminal, err)
	}
	if n := len(outputs(res, "try")); n > 3 {
		t.Errorf("%d items ran after the second failed at once; at most the two running and none new should", n)
	}
	var loop StepResult
	for _, s := range res.Steps {
		if s.Name == "each" {
			loop = s
		}
	}
	if loop.Status != StepFailure || loop.ExitCode != 4 || !strings.Contains(loop.Error, fault.ExecutionLoopBodyFailed) {
		t.Errorf("loop result %+v", loop)
	}
}

// TestForEachMaxConcurrentCancelStopsAll: cancelling the run (Ctrl+C) stops every running
// iteration's process at once, and no new item starts.
func TestForEachMaxConcurrentCancelStopsAll(t *testing.T) {
	marks := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, _, err := flowRun(t, ctx, loopHead+`
  each:
    type: for_each
    items: '[1, 2, 3, 4, 5, 6, 7, 8]'
    max_concurrent: 4
    body: [nap]
    on_complete: done
  nap: {type: command, command: 'touch "`+marks+`/{{.loop.Item}}"; sleep 30'}
  done: {type: terminal}
`, nil)
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the cancelled loop took %s: its iterations were not stopped", took)
	}
	if res.Status != RunInterrupted || fault.ExitCode(err) != fault.ExitInterrupted {
		t.Fatalf("status %s, err %v; want interrupted", res.Status, err)
	}
	started, _ := os.ReadDir(marks)
	if len(started) != 4 {
		t.Errorf("%d items started, want the 4 that ran at once", len(started))
	}
}

// TestForEachMaxConcurrentResumeRunsOnlyUnfinished: a resumed run replays the iterations that
// had finished and runs only the others.
func TestForEachMaxConcurrentResumeRunsOnlyUnfinished(t *testing.T) {
	marks := t.TempDir()
	wf := parseFlow(t, loopHead+`
  each:
    type: for_each
    items: '["a", "b", "c", "d"]'
    max_concurrent: 4
    body: [work]
    on_complete: done
  work: {type: command, command: 'touch "`+marks+`/{{.loop.Item}}"; echo "{{.loop.Item}}"'}
  done: {type: terminal}
`)
	home, tmp := t.TempDir(), t.TempDir()
	r := newRun(t, Options{Commands: shell.Runner{Grace: 100 * time.Millisecond}, Expressions: expr.Compiler{}, Dir: t.TempDir(),
		Environ: []string{"HOME=" + home, "TMPDIR=" + tmp, "PATH=/usr/bin:/bin"}})
	done := []StepResult{
		{Name: "work", Type: "command", Within: "each[0]", Status: StepSuccess, Output: "a"},
		{Name: "work", Type: "command", Within: "each[2]", Status: StepSuccess, Output: "c"},
		{Name: "work", Type: "command", Within: "each[3]", Status: StepFailure, ExitCode: 130},
	}
	res, err := r.Resume(context.Background(), wf, map[string]any{"n": 2}, "each", done)
	if err != nil || res.Status != RunSuccess {
		t.Fatalf("status %s, err %v", res.Status, err)
	}
	entries, _ := os.ReadDir(marks)
	var ran []string
	for _, e := range entries {
		ran = append(ran, filepath.Base(e.Name()))
	}
	if strings.Join(ran, ",") != "b,d" {
		t.Errorf("resumed loop ran %q, want only the unfinished b and d", ran)
	}
}
