package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestWalkRunsTheWorkersItIsGiven: the walk's parallelism is an input. A search sized itself by
// GOMAXPROCS at the instant it started, and ran with one worker whenever something had narrowed
// the process for a moment; now the caller says how many, and less than one means one.
func TestWalkRunsTheWorkersItIsGiven(t *testing.T) {
	dir := t.TempDir()
	for i := range 64 {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i%8))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%02d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := openRoot(t, dir)
	for _, tc := range []struct{ given, most int }{{-1, 1}, {0, 1}, {1, 1}, {3, 3}} {
		t.Run(fmt.Sprint(tc.given), func(t *testing.T) {
			var (
				mu   sync.Mutex
				seen = map[int]bool{}
			)
			err := walkTree(context.Background(), r.Path(), "", nil, walkOptions{root: r, workers: tc.given, visit: func(w int, _ walkFile) {
				mu.Lock()
				seen[w] = true
				mu.Unlock()
			}})
			if err != nil {
				t.Fatal(err)
			}
			for w := range seen {
				if w < 0 || w >= tc.most {
					t.Fatalf("worker %d visited a file; %d given, want workers 0..%d", w, tc.given, tc.most-1)
				}
			}
		})
	}
}
