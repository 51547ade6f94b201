package process

import (
	"context"
	"errors"
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

func alive(pid int) bool {
	// A zombie still answers kill(0); read its state to tell it from a live process.
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(b))
	return len(fields) > 2 && fields[2] != "Z"
}

func TestRunKillsWholeGroupOnCancel(t *testing.T) {
	tests := []struct {
		name   string
		script string
		grace  time.Duration
	}{
		{"polite", `sleep 1000 & echo $! > "$PIDFILE"; wait`, time.Second},
		{"ignores SIGTERM", `trap "" TERM; sleep 1000 & echo $! > "$PIDFILE"; while :; do sleep 0.05; done`, 200 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pidFIFO := testkit.FIFO(t) // the script writes its child's pid once it is set up
			cmd := exec.Command("bash", "-c", tc.script)
			cmd.Env = append(os.Environ(), "PIDFILE="+pidFIFO)
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() { errc <- Run(ctx, cmd, tc.grace) }()
			line, err := testkit.ReadFIFO(pidFIFO, 5*time.Second)
			child, _ := strconv.Atoi(strings.TrimSpace(line))
			if err != nil || child == 0 {
				t.Fatalf("background child never started: %q, %v", line, err)
			}
			cancel()
			select {
			case err := <-errc:
				var ce *CancelledError
				if !errors.As(err, &ce) || !errors.Is(err, context.Canceled) {
					t.Fatalf("want CancelledError wrapping Canceled, got %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return after cancel")
			}
			for deadline := time.Now().Add(2 * time.Second); alive(child) && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			if alive(child) {
				_ = syscall.Kill(child, syscall.SIGKILL)
				t.Fatalf("grandchild %d survived", child)
			}
		})
	}
}

func TestRunSweepsBackgroundChildrenAfterExit(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command("bash", "-c", `sleep 1000 & echo $! > "$PIDFILE"`)
	cmd.Env = append(os.Environ(), "PIDFILE="+pidfile)
	if err := Run(context.Background(), cmd, time.Second); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for deadline := time.Now().Add(2 * time.Second); alive(child) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(child) {
		_ = syscall.Kill(child, syscall.SIGKILL)
		t.Fatalf("background child %d survived its parent's exit", child)
	}
}

func TestRunReportsExitCode(t *testing.T) {
	err := Run(context.Background(), exec.Command("sh", "-c", "exit 7"), time.Second)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Fatalf("want exit 7, got %v", err)
	}
}
