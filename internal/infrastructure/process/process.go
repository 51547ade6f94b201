// Package process starts child processes that cannot outlive awf: each child leads its own
// process group (so grandchildren such as `sleep 1000 &` are reachable), receives SIGKILL if awf
// dies (parent-death signal), and on cancellation gets SIGTERM, a grace period, then SIGKILL, all
// sent to the whole group. A contained start (Contain, Start, Run) goes further: a reaper
// process ends every descendant, including those that left the group with setsid or a double
// fork.
package process

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// DefaultGrace is how long a group gets between SIGTERM and SIGKILL (docs/design.md#processes-and-files).
const DefaultGrace = 5 * time.Second

// Prepare makes cmd start in a new process group with a parent-death signal. Call it before
// Start; Run calls it for you.
func Prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setPdeathsig(cmd.SysProcAttr, syscall.SIGKILL)
	if Contained(cmd) {
		setPdeathsig(cmd.SysProcAttr, syscall.SIGTERM) // the reaper ends its tree, then itself
	}
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

// Run starts cmd contained (Contain) in its own group and waits for it. When ctx ends first,
// every process of the command gets SIGTERM, then SIGKILL after grace; Run returns once they are
// all gone, with an error that wraps ctx.Err(). After a normal exit whatever the command left
// behind (background children, setsid daemons) is SIGKILLed.
func Run(ctx context.Context, cmd *exec.Cmd, grace time.Duration) error {
	Contain(cmd, grace)
	if err := Start(cmd); err != nil {
		return err
	}
	return Wait(ctx, cmd, grace)
}

// Wait waits for a command started after Prepare, applying Run's cancellation rules.
func Wait(ctx context.Context, cmd *exec.Cmd, grace time.Duration) error {
	if Contained(cmd) {
		return waitContained(ctx, cmd, grace)
	}
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

// reaperSlack is how long past grace Wait gives a reaper to end its tree before killing it.
const reaperSlack = 2 * time.Second

// waitContained is Wait for a contained command: cancellation goes to the reaper alone, which
// passes SIGTERM to the whole tree and SIGKILLs it after grace. Should the reaper not finish
// (or die of a signal, which leaves its tree to init), the start's token finds the rest.
func waitContained(ctx context.Context, cmd *exec.Cmd, grace time.Duration) error {
	pid, token := cmd.Process.Pid, Token(cmd)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
		sweepAfter(werr, token)
		return werr
	case <-ctx.Done():
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	timer := time.NewTimer(grace + reaperSlack)
	defer timer.Stop()
	select {
	case werr = <-done:
		sweepAfter(werr, token)
	case <-timer.C:
		_ = KillGroup(pid, syscall.SIGKILL)
		werr = <-done
		Sweep(token, grace)
	}
	return &CancelledError{Cause: context.Cause(ctx), Wait: werr}
}

// sweepAfter sweeps by token when the reaper died of a signal: it may have been killed before
// ending its tree.
func sweepAfter(werr error, token string) {
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			Sweep(token, time.Second)
		}
	}
}
