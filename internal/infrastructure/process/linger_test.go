package process

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestStartLingering checks the reaper's linger: the command's own status arrives as soon as
// it exits, while a child that finishes within the linger is left to finish (an MCP server
// flushing its spans), and a child that would outlive the linger is ended after it.
func TestStartLingering(t *testing.T) {
	for _, tc := range []struct {
		name     string
		script   string
		linger   time.Duration
		finished bool // the child's marker is there once the reaper is gone
	}{
		{"finishes within the linger", `(sleep 0.5; touch "$D/flushed") </dev/null >/dev/null 2>&1 & exit 4`, 5 * time.Second, true},
		{"ended after the linger", `(setsid sh -c 'sleep 3; touch "$D/flushed"') </dev/null >/dev/null 2>&1 & exit 4`, 200 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command("sh", "-c", tc.script)
			cmd.Env = append(os.Environ(), "D="+dir, "HOME="+dir, "TMPDIR="+dir)
			began := time.Now()
			exited, err := StartLingering(cmd, tc.linger, 200*time.Millisecond)
			if err != nil || exited == nil {
				t.Fatalf("start: %v (channel %v)", err, exited)
			}
			var ws syscall.WaitStatus
			select {
			case ws = <-exited:
			case <-time.After(10 * time.Second):
				t.Fatal("no exit status from the reaper")
			}
			if ws.ExitStatus() != 4 || time.Since(began) > tc.linger+3*time.Second {
				t.Fatalf("status %v after %v", ws, time.Since(began))
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			select {
			case <-waited:
			case <-time.After(tc.linger + 10*time.Second):
				KillTree(cmd.Process.Pid)
				t.Fatal("the reaper did not end the tree after its linger")
			}
			time.Sleep(3500*time.Millisecond - time.Since(began)) // past the second child's touch, had it lived
			if _, err := os.Stat(filepath.Join(dir, "flushed")); (err == nil) != tc.finished {
				t.Errorf("marker there: %v, want %v", err == nil, tc.finished)
			}
		})
	}
}
