package search

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

// openRoot confines to dir as the Grep and Glob tools do, closed when the test ends.
func openRoot(t testing.TB, dir string) *rootfs.Root {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := rootfs.Open(real)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// grepCounts runs a count-mode search of the whole root and returns the count of each file.
func grepCounts(t testing.TB, root *rootfs.Root, pattern string, workers int) map[string]int {
	t.Helper()
	g, err := NewGrep(GrepOptions{Root: root, Pattern: pattern, Mode: Count, MaxOut: 256 << 10, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	out, err := g.Tree(context.Background(), root.Path())
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, line := range strings.Split(out, "\n") {
		i := strings.LastIndexByte(line, ':')
		if i < 0 || strings.HasPrefix(line, "[") {
			continue
		}
		if n, err := strconv.Atoi(line[i+1:]); err == nil {
			counts[line[:i]] = n
		}
	}
	return counts
}
