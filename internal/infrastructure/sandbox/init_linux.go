package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// runAsInit runs the command as the only child of the helper, which stays PID 1 of the
// sandbox's PID namespace. The shell must not be PID 1 itself: the kernel delivers to a
// namespace's init only the signals it has handlers for, so a SIGTERM on timeout would be
// ignored and every timed-out call would wait out the grace period before SIGKILL. The
// helper forwards SIGTERM, SIGINT and SIGHUP to the command, returns its exit status
// (128+signal when a signal ended it), and its own exit tears the namespace down, killing
// whatever the command left behind. The child is forked from the locked, confined thread, so
// it inherits the Landlock domain, no_new_privs and the emptied capability sets.
func runAsInit(args, env []string) int {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "awf sandbox: cannot run %s: %v\n", args[0], err)
		return 127
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case s := <-sigs:
			_ = cmd.Process.Signal(s)
		case err := <-done:
			if err == nil {
				return 0
			}
			if ee, ok := err.(*exec.ExitError); ok {
				if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					return 128 + int(ws.Signal())
				}
				return ee.ExitCode()
			}
			return 127
		}
	}
}
