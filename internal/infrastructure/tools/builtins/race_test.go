//go:build linux

package builtins

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/awf-dev/awf/tests/testkit"
)

// raceDuration is how long each tool is raced against the symlink swapper: short in `make
// test`, AWF_RACE_SECONDS (the issue's acceptance run uses 10) for the long run.
func raceDuration(t *testing.T) time.Duration {
	if s := os.Getenv("AWF_RACE_SECONDS"); s != "" {
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("AWF_RACE_SECONDS: %v", err)
		}
		return time.Duration(n * float64(time.Second))
	}
	return 500 * time.Millisecond
}

// TestSymlinkSwapRace exchanges, as fast as the kernel allows, a real directory in the root
// with a symlink to a directory outside it (renameat2 RENAME_EXCHANGE), while each file tool
// works on a path through that name. Before os.Root, Read, Write and Grep escaped hundreds of
// times in 16 s; the count must now be zero for all five tools.
func TestSymlinkSwapRace(t *testing.T) {
	p, root := newTestProvider(t)
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "f"), "SECRET outside\n")
	mustWrite(t, filepath.Join(outside, "zzsecretname"), "SECRET outside\n")
	if err := os.Mkdir(filepath.Join(root, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(root, "x", "f"), "inside\n")
	if err := os.Symlink(outside, filepath.Join(root, "y")); err != nil {
		t.Fatal(err)
	}
	if err := unix.Renameat2(unix.AT_FDCWD, filepath.Join(root, "x"), unix.AT_FDCWD, filepath.Join(root, "y"), unix.RENAME_EXCHANGE); err != nil {
		testkit.Skipf(t, "renameat2(RENAME_EXCHANGE) unavailable: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	swaps := atomic.Int64{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			if unix.Renameat2(unix.AT_FDCWD, filepath.Join(root, "x"), unix.AT_FDCWD, filepath.Join(root, "y"), unix.RENAME_EXCHANGE) == nil {
				swaps.Add(1)
			}
		}
	}()
	defer func() { cancel(); <-done }()
	tools := []struct {
		name    string
		args    map[string]any
		escaped func(text string) bool
	}{
		{"Read", map[string]any{"file_path": "x/f"}, func(s string) bool { return strings.Contains(s, "SECRET") }},
		{"Write", map[string]any{"file_path": "x/w", "content": "pwned"}, func(string) bool { return exists(filepath.Join(outside, "w")) }},
		{"Edit", map[string]any{"file_path": "x/f", "old_string": "SECRET", "new_string": "pwned"}, func(string) bool {
			b, _ := os.ReadFile(filepath.Join(outside, "f"))
			return !strings.Contains(string(b), "SECRET")
		}},
		{"Glob", map[string]any{"pattern": "x/*"}, func(s string) bool { return strings.Contains(s, "zzsecretname") }},
		{"Grep", map[string]any{"pattern": "SECRET", "path": "x", "output_mode": "content"}, func(s string) bool { return strings.Contains(s, "SECRET") }},
	}
	per := raceDuration(t)
	for _, tc := range tools {
		escapes, calls := 0, 0
		deadline := time.Now().Add(per)
		for time.Now().Before(deadline) {
			res := call(t, p, tc.name, tc.args)
			calls++
			if tc.escaped(res.JoinedText()) {
				escapes++
			}
		}
		t.Logf("%s: %d calls, %d escapes, %d swaps so far", tc.name, calls, escapes, swaps.Load())
		if escapes != 0 {
			t.Errorf("%s escaped the root %d times in %d calls", tc.name, escapes, calls)
		}
	}
	if swaps.Load() == 0 {
		t.Fatal("the swapper never swapped: the test proved nothing")
	}
}
