package cli

import (
	"context"
	"os/exec"
	"syscall"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/process"
)

// reaperSlack is how long past grace superviseReaper gives the reaper to end its tree before
// it kills the reaper's group and sweeps what is left by the start's token.
const reaperSlack = 2 * time.Second

// superviseReaper waits for a CLI started under a reaper (process.StartLingering). The reaper
// keeps every process the CLI starts below it, setsid and double-forked ones included: once
// the CLI has exited (exited says how) they get the linger, then SIGTERM, grace and SIGKILL,
// and the reaper exits when none is left. When ctx ends first, or during the linger (Ctrl+C
// cuts it short), the reaper gets SIGTERM, which it passes to the whole tree before SIGKILL
// after grace. stopped says the CLI itself was stopped; status is its own wait status, nil when
// the reaper did not report it; werr is the reaper's wait error.
func superviseReaper(ctx context.Context, cmd *exec.Cmd, exited <-chan syscall.WaitStatus, grace time.Duration) (stopped bool, status *syscall.WaitStatus, werr error) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case ws, ok := <-exited:
		if ok {
			status = &ws
		}
	case <-ctx.Done():
		return true, nil, stopReaper(cmd, done, grace)
	}
	select {
	case werr = <-done:
		return false, status, werr
	case <-ctx.Done():
		return false, status, stopReaper(cmd, done, grace)
	}
}

// stopReaper sends SIGTERM to the reaper and waits for it; should it not end its tree within
// grace and reaperSlack, its group is killed and the start's processes swept by token.
func stopReaper(cmd *exec.Cmd, done <-chan error, grace time.Duration) error {
	pid, token := cmd.Process.Pid, process.Token(cmd)
	_ = syscall.Kill(pid, syscall.SIGTERM)
	timer := time.NewTimer(grace + reaperSlack)
	defer timer.Stop()
	select {
	case werr := <-done:
		return werr
	case <-timer.C:
	}
	_ = process.KillGroup(pid, syscall.SIGKILL)
	werr := <-done
	process.Sweep(token, grace)
	return werr
}
