package process

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// Table is the ports.Processes adapter over this machine's process table (/proc and signals),
// for processes awf did not start itself and so cannot wait(2) for.
type Table struct {
	// Poll is how often WaitExit looks at the table; 0 means 10 ms.
	Poll time.Duration
}

var _ ports.Processes = Table{}

// Alive reports whether pid is a live, non-zombie process.
func (Table) Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name, which may itself hold spaces.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

// Terminate sends SIGTERM to pid.
func (Table) Terminate(pid int) error { return signal(pid, syscall.SIGTERM) }

// Kill sends SIGKILL to pid.
func (Table) Kill(pid int) error { return signal(pid, syscall.SIGKILL) }

// WaitExit returns nil once pid is gone or a zombie, or ctx's error when ctx ends first.
func (t Table) WaitExit(ctx context.Context, pid int) error {
	poll := t.Poll
	if poll <= 0 {
		poll = 10 * time.Millisecond
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for t.Alive(pid) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

func signal(pid int, sig syscall.Signal) error {
	if pid <= 0 {
		return fmt.Errorf("process: invalid pid %d", pid)
	}
	if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
