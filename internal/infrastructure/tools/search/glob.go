package search

import (
	"context"
	"io/fs"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

// GlobHit is one file a glob matched, with the modification time the Glob tool sorts by.
type GlobHit struct {
	Path  string
	MTime time.Time
}

// GlobOptions are how a Glob walks: Workers goroutines (less than one means one), and Hidden,
// which drops what it says is hidden (credential stores under the root) as if absent.
type GlobOptions struct {
	Workers int
	Hidden  func(abs string) bool
}

// Glob walks start as o says and returns the files whose path relative to start matches pattern
// (doublestar semantics: "**" spans directories). Without "**" the walk stops at the pattern's
// depth. Symlinks are listed when they point at a non-directory; they are never followed.
func Glob(ctx context.Context, root *rootfs.Root, start, pattern string, o GlobOptions) ([]GlobHit, error) {
	depth := 0
	if !strings.Contains(pattern, "**") && !strings.Contains(pattern, "{") {
		depth = strings.Count(pattern, "/") + 1
	}
	var (
		mu   sync.Mutex
		hits []GlobHit
	)
	err := walkTree(ctx, start, "", nil, walkOptions{
		root:     root,
		workers:  o.Workers,
		maxDepth: depth,
		hidden:   o.Hidden,
		visit: func(_ int, f walkFile) {
			if !doublestar.MatchUnvalidated(pattern, f.rel) {
				return
			}
			fi, err := f.stat(root) // follows a symlink to learn what it points at
			if err != nil || fi.IsDir() {
				return
			}
			if f.mode&fs.ModeSymlink != 0 {
				if li, err := f.lstat(root); err == nil {
					fi = li
				}
			}
			mu.Lock()
			hits = append(hits, GlobHit{Path: f.abs, MTime: fi.ModTime()})
			mu.Unlock()
		},
	})
	return hits, err
}
