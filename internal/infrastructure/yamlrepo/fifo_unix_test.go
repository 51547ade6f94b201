//go:build unix

package yamlrepo

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/tests/testkit"
)

// TestLoadFIFO checks that a named pipe is refused instead of blocking forever (docs/design.md#pitfalls).
func TestLoadFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.yaml")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		testkit.Skipf(t, "mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := Load(p)
		done <- err
	}()
	select {
	case err := <-done:
		if fault.CodeOf(err) != fault.UserWorkflowUnreadable {
			t.Errorf("Load(fifo) error = %v, want %s", err, fault.UserWorkflowUnreadable)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Load blocked on a FIFO")
	}
}
