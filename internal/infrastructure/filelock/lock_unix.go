//go:build unix

package filelock

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// Lock takes an exclusive flock on f, trying again after the waits of b while another open file
// holds it, and returns ctx's error if ctx ends first. The lock belongs to f's open file (not
// to the process): another os.OpenFile of the same path, in this process or another, waits for
// it.
func Lock(ctx context.Context, f *os.File, b Backoff) error {
	wait := b.First
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = b.next(wait)
	}
}

// Unlock releases the lock Lock took on f (closing f releases it too).
func Unlock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
