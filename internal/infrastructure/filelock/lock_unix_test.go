//go:build unix

package filelock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var quick = Backoff{First: 10 * time.Microsecond, Max: time.Millisecond}

// open opens path again: flock locks belong to open files, so two opens contend like two
// processes.
func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// held opens one lock file twice and locks it through the first.
func held(t *testing.T) (holder, other *os.File) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lock")
	holder, other = open(t, path), open(t, path)
	if err := Lock(context.Background(), holder, quick); err != nil {
		t.Fatal(err)
	}
	return holder, other
}

func TestLockExcludesAnotherOpenFile(t *testing.T) {
	holder, other := held(t)
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Lock(ended, other, quick); !errors.Is(err, context.Canceled) {
		t.Fatalf("Lock while held = %v, want context.Canceled", err)
	}
	if err := Unlock(holder); err != nil {
		t.Fatal(err)
	}
	// Free, the lock is taken on the first try, even with a context already ended.
	if err := Lock(ended, other, quick); err != nil {
		t.Fatalf("Lock once released = %v, want nil", err)
	}
}

func TestLockWaitEndsWithItsContext(t *testing.T) {
	_, waiter := held(t) // the holder keeps it until the test ends
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Lock(ctx, waiter, Backoff{First: time.Hour, Max: time.Hour}) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Lock = %v, want context.Canceled", err)
	}
}

func TestLockWaiterGetsItWhenReleased(t *testing.T) {
	holder, waiter := held(t)
	done := make(chan error, 1)
	go func() { done <- Lock(context.Background(), waiter, quick) }()
	if err := Unlock(holder); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("waiter: %v", err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Lock(ended, holder, quick); !errors.Is(err, context.Canceled) {
		t.Fatalf("former holder = %v, want context.Canceled while the waiter holds it", err)
	}
}

// TestLockContended has two goroutines, each with its own open file, take the lock in turn;
// never are both inside.
func TestLockContended(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	var inside atomic.Int32
	var entries atomic.Int32
	const rounds = 200
	var wg sync.WaitGroup
	for range 2 {
		f := open(t, path)
		wg.Go(func() {
			for range rounds {
				if err := Lock(context.Background(), f, quick); err != nil {
					t.Error(err)
					return
				}
				if !inside.CompareAndSwap(0, 1) {
					t.Error("both goroutines hold the lock")
				}
				entries.Add(1)
				runtime.Gosched() // give the other goroutine its chance to come in
				inside.Store(0)
				if err := Unlock(f); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := entries.Load(); got != 2*rounds {
		t.Fatalf("%d entries, want %d", got, 2*rounds)
	}
}

func TestLockReportsABadFile(t *testing.T) {
	f := open(t, filepath.Join(t.TempDir(), "lock"))
	_ = f.Close()
	if err := Lock(context.Background(), f, quick); err == nil || errors.Is(err, context.Canceled) {
		t.Fatalf("Lock on a closed file = %v, want the flock error", err)
	}
}
