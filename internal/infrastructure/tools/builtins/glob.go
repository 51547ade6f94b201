package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/awf-dev/awf/internal/domain/tool"
)

type globArgs struct {
	Pattern string  `json:"pattern"`
	Path    *string `json:"path"`
}

// globHit is one matching file with the time it sorts by.
type globHit struct {
	path  string
	mtime time.Time
}

func (p *Provider) callGlob(ctx context.Context, raw json.RawMessage) tool.Result {
	var a globArgs
	if err := decodeArgs(raw, &a, "pattern"); err != nil {
		return tool.Error("Glob: " + err.Error())
	}
	if a.Pattern == "" {
		return tool.Error("Glob: argument \"pattern\" is empty; give a pattern such as \"**/*.go\"")
	}
	base := p.root.root
	if a.Path != nil && *a.Path != "" {
		dir, err := p.root.resolve(*a.Path)
		if err != nil {
			return tool.Error("Glob: " + err.Error())
		}
		base = dir
	}
	full := filepath.ToSlash(a.Pattern)
	if !strings.HasPrefix(full, "/") {
		full = strings.TrimSuffix(filepath.ToSlash(base), "/") + "/" + strings.TrimPrefix(full, "./")
	}
	static, pattern := doublestar.SplitPattern(full)
	if pattern == "" || !doublestar.ValidatePattern(pattern) {
		return tool.Error(fmt.Sprintf("Glob: %q is not a valid glob pattern (check brackets and braces)", a.Pattern))
	}
	start, err := p.root.resolve(filepath.FromSlash(static))
	if err != nil {
		return tool.Error("Glob: " + err.Error())
	}
	fi, err := p.root.stat(start)
	if err != nil {
		return tool.Text("No files found")
	}
	if !fi.IsDir() {
		return tool.Error(fmt.Sprintf("Glob: %s is not a directory; path must be a directory", start))
	}
	hits, err := globFiles(ctx, p.root, start, pattern)
	if err != nil {
		return tool.Error("Glob: " + err.Error())
	}
	if len(hits) == 0 {
		return tool.Text("No files found")
	}
	sort.Slice(hits, func(i, j int) bool {
		if !hits[i].mtime.Equal(hits[j].mtime) {
			return hits[i].mtime.After(hits[j].mtime)
		}
		return hits[i].path < hits[j].path
	})
	var b strings.Builder
	n := min(len(hits), globMaxResults)
	for _, h := range hits[:n] {
		b.WriteString(h.path)
		b.WriteByte('\n')
	}
	if len(hits) > n {
		fmt.Fprintf(&b, "[%d files matched; showing the %d most recently modified. Use a more specific pattern or path.]\n", len(hits), n)
	}
	return tool.Text(capText(b.String(), p.maxOut))
}

// globFiles walks start and returns the files whose path relative to start matches pattern
// (doublestar semantics: "**" spans directories). Without "**" the walk stops at the pattern's
// depth. Symlinks are listed when they point at a non-directory; they are never followed.
func globFiles(ctx context.Context, root confiner, start, pattern string) ([]globHit, error) {
	depth := 0
	if !strings.Contains(pattern, "**") && !strings.Contains(pattern, "{") {
		depth = strings.Count(pattern, "/") + 1
	}
	var (
		mu   sync.Mutex
		hits []globHit
	)
	err := walkTree(ctx, start, "", nil, walkOptions{
		root:     root,
		maxDepth: depth,
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
			hits = append(hits, globHit{path: f.abs, mtime: fi.ModTime()})
			mu.Unlock()
		},
	})
	return hits, err
}

// capText cuts s to at most limit bytes at a line boundary, with a note.
func capText(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := strings.LastIndexByte(s[:max(limit-200, 0)], '\n') + 1
	return s[:cut] + fmt.Sprintf("[output truncated: %d bytes total, showing the first %d]\n", len(s), cut)
}
