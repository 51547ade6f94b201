// Package resumeif_test checks `awf run --resume-if-interrupted` as a rescheduled pod uses it:
// awf is killed with SIGKILL in the middle of a step, and the same command started again
// continues that run (same run id) without running the steps that had finished.
package resumeif_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/tests/testkit"
)

var bins *testkit.Bins

func TestMain(m *testing.M) {
	testkit.Main(m.Run, false, &bins)
}

// slowWorkflow: first appends to first.count; second appends to second.count and, the first
// time only (no .again marker), signals it started and waits long enough to be killed; third
// appends to third.count.
const slowWorkflow = `name: slow
inputs:
  - name: item
    type: string
    required: true
states:
  initial: first
  first:
    type: command
    command: echo {{quote .inputs.item}} >> first.count
    on_success: second
  second:
    type: command
    command: |
      echo x >> second.count
      if [ ! -e .again ]; then touch second.started; sleep 60; fi
    timeout: 2m
    on_success: third
  third:
    type: command
    command: echo x >> third.count
    on_success: done
  done:
    type: terminal
`

var runIDLine = regexp.MustCompile(`Running workflow 'slow' \(run ([^)]+)\)`)

func TestResumeIfInterruptedAfterSIGKILL(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".awf", "workflows", "slow.yaml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(slowWorkflow), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+t.TempDir(), "TMPDIR="+t.TempDir())
	args := []string{"run", "slow", "--input", "item=a", "--resume-if-interrupted"}

	// First start: killed with SIGKILL while `second` sleeps.
	first := exec.Command(bins.AWF, args...)
	first.Dir, first.Env = dir, env
	var out1 bytes.Buffer
	first.Stdout, first.Stderr = &out1, &out1
	first.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	if !testkit.Eventually(30*time.Second, func() bool { _, err := os.Stat(filepath.Join(dir, "second.started")); return err == nil }) {
		_ = syscall.Kill(-first.Process.Pid, syscall.SIGKILL)
		_ = first.Wait()
		t.Fatalf("the second step never started:\n%s", out1.String())
	}
	_ = first.Process.Signal(syscall.SIGKILL)
	_ = first.Wait()
	_ = syscall.Kill(-first.Process.Pid, syscall.SIGKILL) // the sleep, if the kernel left it
	m := runIDLine.FindStringSubmatch(out1.String())
	if m == nil {
		t.Fatalf("no run id in:\n%s", out1.String())
	}
	id := m[1]

	// A different input is another item: it starts its own run and leaves the killed one alone.
	if err := os.WriteFile(filepath.Join(dir, ".again"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	other := run(t, dir, env, "run", "slow", "--input", "item=b", "--resume-if-interrupted")
	if m := runIDLine.FindStringSubmatch(other); m == nil || m[1] == id {
		t.Fatalf("item=b should start a new run, not resume %s:\n%s", id, other)
	}

	// The same command again: the killed run continues.
	again := run(t, dir, env, args...)
	if m := runIDLine.FindStringSubmatch(again); m == nil || m[1] != id {
		t.Fatalf("want run %s resumed:\n%s", id, again)
	}
	if strings.Contains(again, "first (command)") {
		t.Fatalf("the finished step ran again:\n%s", again)
	}
	if got := read(t, dir, "first.count"); got != "a\nb\n" {
		t.Fatalf("first.count = %q: the resumed run re-ran its first step", got)
	}
	if got := read(t, dir, "second.count"); got != "x\nx\nx\n" {
		t.Fatalf("second.count = %q, want the killed attempt, item b's and the resumed one", got)
	}
	state, _ := os.ReadFile(filepath.Join(dir, ".awf", "runs", id, "state.json"))
	var rec struct{ Status string }
	if err := json.Unmarshal(state, &rec); err != nil || rec.Status != runrecord.Succeeded {
		t.Fatalf("run %s did not end succeeded:\n%s", id, state)
	}

	// Finished now: the same command once more starts a new run.
	fresh := run(t, dir, env, args...)
	if m := runIDLine.FindStringSubmatch(fresh); m == nil || m[1] == id {
		t.Fatalf("a succeeded run was resumed again:\n%s", fresh)
	}
}

func run(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.AWF, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("awf %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
