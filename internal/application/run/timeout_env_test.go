package run

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// TestWorkflowTimeoutStopsTheRun: past the workflow's timeout the running step's process is
// ended and the run fails with EXECUTION.RUN.TIMEOUT, naming the state it was in; the
// workflow_error hook still runs.
func TestWorkflowTimeoutStopsTheRun(t *testing.T) {
	dir := t.TempDir()
	pidFile, hookMark := filepath.Join(dir, "pid"), filepath.Join(dir, "hook")
	start := time.Now()
	res, _, err := flowRun(t, context.Background(), `name: t
timeout: 3s
hooks:
  workflow_error:
    - command: 'touch "`+hookMark+`"'
states:
  initial: first
  first: {type: command, command: 'echo ok', on_success: slow}
  slow: {type: command, command: 'echo $$ > "`+pidFile+`"; exec sleep 30', on_success: done}
  done: {type: terminal}
`, nil)
	if took := time.Since(start); took > 30*time.Second {
		t.Fatalf("the run took %s past a 3s timeout", took)
	}
	if res.Status != RunFailure || fault.CodeOf(err) != fault.ExecutionRunTimeout || !strings.Contains(err.Error(), `"slow"`) {
		t.Fatalf("status %s, err %v; want failure with %s naming slow", res.Status, err, fault.ExecutionRunTimeout)
	}
	b, rerr := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if rerr != nil || pid == 0 {
		t.Fatalf("the step never started: %v", rerr)
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		t.Errorf("process %d of the timed-out step is still there", pid)
	}
	if _, err := os.Stat(hookMark); err != nil {
		t.Errorf("workflow_error hook did not run after the timeout: %v", err)
	}
}

// TestWorkflowTimeoutNotReached: a run that ends in time is not touched by its timeout.
func TestWorkflowTimeoutNotReached(t *testing.T) {
	res, _, err := flowRun(t, context.Background(), `name: t
timeout: 1m
states:
  initial: a
  a: {type: command, command: 'echo ok', on_success: done}
  done: {type: terminal}
`, nil)
	if err != nil || res.Status != RunSuccess {
		t.Fatalf("status %s, err %v", res.Status, err)
	}
}

// TestStepEnvReachesTheCommandAsData: a step's env values are rendered and reach the command
// as variables, so a hostile value is printed, never run; the step's env wins over the
// inherited environment only for that step.
func TestStepEnvReachesTheCommandAsData(t *testing.T) {
	dir := t.TempDir()
	pwned := filepath.Join(dir, "PWNED")
	res, _, err := flowRun(t, context.Background(), `name: t
inputs:
  - name: v
    type: string
states:
  initial: a
  a:
    type: command
    env:
      GREETING: 'hello {{.inputs.v}}'
      HOME: /elsewhere
    command: 'printf "%s|%s" "$GREETING" "$HOME"'
    on_success: b
  b: {type: command, command: 'printf "%s" "${GREETING:-unset}"', on_success: done}
  done: {type: terminal}
`, map[string]string{"v": `$(touch ` + pwned + `)'; touch ` + pwned + `; echo "`})
	if err != nil || res.Status != RunSuccess {
		t.Fatalf("status %s, err %v", res.Status, err)
	}
	want := `hello $(touch ` + pwned + `)'; touch ` + pwned + `; echo "|/elsewhere`
	if got := outputs(res, "a"); len(got) != 1 || got[0] != want {
		t.Errorf("a printed %q, want %q", got, want)
	}
	if got := outputs(res, "b"); len(got) != 1 || got[0] != "unset" {
		t.Errorf("b printed %q: a step's env leaked into the next step", got)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("a value in env ran as code")
	}
}

// TestItemsFromLines: {{lines …}} turns a command's newline-separated output into a for_each's
// items, one per non-empty line, whatever the lines hold.
func TestItemsFromLines(t *testing.T) {
	res, _, err := flowRun(t, context.Background(), `name: t
states:
  initial: ls
  ls: {type: command, command: 'printf "a b.go\n\nsay \"hi\".go\n"', on_success: each}
  each:
    type: for_each
    items: '{{lines .states.ls.Output}}'
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo "{{.loop.Index}}:{{.loop.Item}}"'}
  done: {type: terminal}
`, nil)
	if err != nil || res.Status != RunSuccess {
		t.Fatalf("status %s, err %v", res.Status, err)
	}
	if got := strings.Join(outputs(res, "show"), "|"); got != `0:a b.go|1:say "hi".go` {
		t.Errorf("items from lines: %q", got)
	}
}
