package testkit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Eventually polls cond until it holds or within has passed, and reports whether it held. Use it
// only to watch what another process does that sends no signal of its own (a process leaving
// the process table, a line in its log file); anything in this process has a channel to wait on.
func Eventually(within time.Duration, cond func() bool) bool {
	if cond() {
		return true
	}
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if cond() {
				return true
			}
		case <-deadline.C:
			return cond()
		}
	}
}

// FIFO makes a named pipe in a fresh temp dir: a shell run by the code under test writes a
// line into it (`echo $$ > FIFO`), and ReadFIFO is the rendezvous on the other end.
func FIFO(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "rendezvous.fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	return p
}

// ReadFIFO waits until a writer opens the FIFO at path and returns what it wrote before closing
// it. After within it unblocks the pending open by writing nothing itself and returns an error.
func ReadFIFO(path string, within time.Duration) (string, error) {
	type result struct {
		b   []byte
		err error
	}
	got := make(chan result, 1)
	go func() {
		b, err := os.ReadFile(path) // the open blocks until a writer opens the pipe
		got <- result{b, err}
	}()
	select {
	case r := <-got:
		return string(r.b), r.err
	case <-time.After(within):
		// Open as a writer: the reader's open returns, then sees end of file.
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			_ = w.Close()
		}
		if r := <-got; len(r.b) > 0 { // a writer came just in time
			return string(r.b), r.err
		}
		return "", errors.New(fmt.Sprint("nothing was written to ", path, " within ", within))
	}
}
