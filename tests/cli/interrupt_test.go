package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"
)

const sleepyWorkflow = `name: sleepy
states:
  initial: nap
  nap:
    type: command
    command: echo $$ > "{{.env.PIDDIR}}/sh"; sleep 1000 & echo $! > "{{.env.PIDDIR}}/bg"; wait
    on_success: done
    on_failure: done
  done:
    type: terminal
`

// TestInterruptLeavesNoChild sends SIGINT to awf as Ctrl+C would and checks, in the process
// table, that the step's shell and its background child are gone and awf exits 130.
func TestInterruptLeavesNoChild(t *testing.T) {
	dir := project(t, map[string]string{"sleepy.yaml": sleepyWorkflow})
	piddir := t.TempDir()
	cmd := exec.Command(awfBin, "run", "sleepy")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIDDIR="+piddir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPIDs(t, filepath.Join(piddir, "sh"), filepath.Join(piddir, "bg"))
	for _, p := range pids {
		if !testkit.Alive(p) {
			t.Fatalf("pid %d not running before the interrupt", p)
		}
	}
	interruptAndReap(t, cmd, &out, pids, "pid")
	if !strings.Contains(out.String(), "interrupted") {
		t.Errorf("output does not say interrupted:\n%s", out.String())
	}
}

func waitPIDs(t *testing.T, files ...string) []int {
	t.Helper()
	var pids []int
	deadline := time.Now().Add(10 * time.Second)
	for _, f := range files {
		for {
			b, err := os.ReadFile(f)
			if n, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil && n > 0 {
				pids = append(pids, n)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("pid file %s never written", f)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return pids
}

// interruptAndReap sends awf SIGINT, expects it to exit 130 within 15 s, and then every process
// of pids (named what in messages) to be gone: killed with its group before awf exited.
func interruptAndReap(t *testing.T, cmd *exec.Cmd, out *bytes.Buffer, pids []int, what string) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("awf did not exit after SIGINT:\n%s", out.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d, want 130:\n%s", code, out.String())
	}
	for _, p := range pids {
		// The group was killed before awf exited; give the kernel a moment to tear it down.
		for deadline := time.Now().Add(2 * time.Second); testkit.Alive(p) && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if testkit.Alive(p) {
			_ = syscall.Kill(p, syscall.SIGKILL)
			t.Errorf("%s %d survived the interrupt: %s", what, p, testkit.State(p))
		}
	}
}
