// Package process starts child processes that cannot outlive awf: each child leads its own
// process group (so grandchildren such as `sleep 1000 &` are reachable), receives SIGKILL if awf
// dies (parent-death signal), and on cancellation gets SIGTERM, a grace period, then SIGKILL, all
// sent to the whole group.
package process

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// DefaultGrace is how long a group gets between SIGTERM and SIGKILL (DESIGN §8).
const DefaultGrace = 5 * time.Second

// Prepare makes cmd start in a new process group with a parent-death signal. Call it before
// Start; Run calls it for you.
func Prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// KillGroup sends sig to the process group led by pid. A group that is already gone is not an
// error: the goal, no survivors, holds.
func KillGroup(pid int, sig syscall.Signal) error {
	if pid <= 0 {
		return fmt.Errorf("process: invalid pid %d", pid)
	}
	err := syscall.Kill(-pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// Run starts cmd in its own group and waits for it. When ctx ends first, the group gets SIGTERM,
// then SIGKILL after grace; Run returns once the direct child is reaped, with an error that
// wraps ctx.Err(). After a normal exit the group is still swept with SIGKILL so that background
// children the command left behind do not survive it.
func Run(ctx context.Context, cmd *exec.Cmd, grace time.Duration) error {
	Prepare(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return Wait(ctx, cmd, grace)
}

// Wait waits for a command started after Prepare, applying Run's cancellation rules.
func Wait(ctx context.Context, cmd *exec.Cmd, grace time.Duration) error {
	pid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		_ = KillGroup(pid, syscall.SIGKILL)
		return err
	case <-ctx.Done():
	}
	_ = KillGroup(pid, syscall.SIGTERM)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	var werr error
	select {
	case werr = <-done:
	case <-timer.C:
		_ = KillGroup(pid, syscall.SIGKILL)
		werr = <-done
	}
	_ = KillGroup(pid, syscall.SIGKILL)
	return &CancelledError{Cause: context.Cause(ctx), Wait: werr}
}

// CancelledError reports a command stopped because its context ended.
type CancelledError struct {
	Cause error // ctx's cause: context.Canceled, DeadlineExceeded or a custom cause
	Wait  error // what Wait returned after the signals
}

// Error says the process was stopped and why.
func (e *CancelledError) Error() string {
	return fmt.Sprintf("process stopped: %v", e.Cause)
}

// Unwrap exposes the context cause so errors.Is(err, context.DeadlineExceeded) works.
func (e *CancelledError) Unwrap() error { return e.Cause }
