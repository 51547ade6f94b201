package runstore

import (
	"errors"
	"os/exec"
	"strconv"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// deadPID returns the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func itoa(n int) string { return strconv.Itoa(n) }

func asFault(err error, fe **fault.Error) bool { return errors.As(err, fe) }
