package runstore

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadSourceRefusesAFIFO: hashing the files a run reads at start must not wait on a named
// pipe planted as a prompt or script file (nobody writes to it: a blocking open would hang the
// run before the step's own check could say what is wrong).
func TestReadSourceRefusesAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "prompt.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Store{}.ReadSource(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("ReadSource(fifo) = %v, want a not-a-regular-file error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadSource blocked on a FIFO")
	}
}
