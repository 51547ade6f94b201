package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// openFDs counts this process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(ents)
}

// wideTree makes dirs directories of files files each, two levels deep.
func wideTree(t *testing.T, dirs, files int) string {
	t.Helper()
	root := t.TempDir()
	for d := range dirs {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", d), "sub")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", f)), []byte("needle\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

// The walk opens a directory handle per directory and closes it after its last entry; a walk
// that ends early (cancellation, a panic in visit) must close the handles of the entries it
// never reached, or a long-lived mcp-serve runs out of descriptors.
func TestWalkClosesEveryDirectory(t *testing.T) {
	root := wideTree(t, 30, 5)
	r := openRoot(t, root)
	// A leak shows as more descriptors after than before; fewer happens when something of an
	// earlier test (a pipe, a pidfd) closes meanwhile, and is no leak.
	before := openFDs(t)
	for _, stopAfter := range []int64{0, 1, 7, 40, 1 << 30} {
		ctx, cancel := context.WithCancel(context.Background())
		var seen atomic.Int64
		err := walkTree(ctx, r.Path(), "", nil, walkOptions{root: r, workers: 2, visit: func(_ int, f walkFile) {
			if seen.Add(1) > stopAfter {
				cancel()
			}
			if fh, err := f.openFile(r, os.O_RDONLY); err == nil {
				fh.Close()
			} else {
				t.Errorf("open %s: %v", f.rel, err)
			}
		}})
		cancel()
		if stopAfter == 1<<30 && (err != nil || seen.Load() != 150) {
			t.Fatalf("full walk: err %v, %d files, want 150", err, seen.Load())
		}
		if got := openFDs(t); got > before {
			t.Fatalf("stop after %d: %d descriptors open after the walk, %d before", stopAfter, got, before)
		}
	}
	// A panic in visit aborts the walk: the handles still close.
	err := walkTree(context.Background(), r.Path(), "", nil, walkOptions{root: r, workers: 2, visit: func(int, walkFile) { panic("boom") }})
	if err == nil {
		t.Fatal("a panicking visit returned no error")
	}
	if got := openFDs(t); got > before {
		t.Fatalf("after a panic: %d descriptors open, %d before", got, before)
	}
}

// Entries found by the walk are opened relative to their directory: a file swapped for a
// symlink leading outside the root after the listing is refused, not followed.
func TestWalkFileOpenStaysInRoot(t *testing.T) {
	root := wideTree(t, 1, 1)
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := openRoot(t, root)
	var opened, refused atomic.Int64
	err := walkTree(context.Background(), r.Path(), "", nil, walkOptions{root: r, workers: 1, visit: func(_ int, f walkFile) {
		// The swap, after the listing and before the open.
		if err := os.Remove(f.abs); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(outside, f.abs); err != nil {
			t.Error(err)
		}
		fh, err := f.openFile(r, os.O_RDONLY)
		if err == nil {
			fh.Close()
			opened.Add(1)
			return
		}
		refused.Add(1)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if opened.Load() != 0 || refused.Load() != 1 {
		t.Fatalf("opened %d, refused %d: the swapped-in symlink to %s was followed", opened.Load(), refused.Load(), outside)
	}
}
