package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/tools/search"
)

type globArgs struct {
	Pattern string  `json:"pattern"`
	Path    *string `json:"path"`
}

func (p *Provider) callGlob(ctx context.Context, raw json.RawMessage) tool.Result {
	var a globArgs
	if err := decodeArgs(raw, &a, "pattern"); err != nil {
		return tool.Error("Glob: " + err.Error())
	}
	if a.Pattern == "" {
		return tool.Error("Glob: argument \"pattern\" is empty; give a pattern such as \"**/*.go\"")
	}
	base := p.root.Path()
	if a.Path != nil && *a.Path != "" {
		dir, err := p.root.Resolve(*a.Path)
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
	start, err := p.root.Resolve(filepath.FromSlash(static))
	if err != nil {
		return tool.Error("Glob: " + err.Error())
	}
	if err := p.refuseHidden(start); err != nil {
		return tool.Error("Glob: " + err.Error())
	}
	fi, err := p.root.Stat(start)
	if err != nil {
		return tool.Text("No files found")
	}
	if !fi.IsDir() {
		return tool.Error(fmt.Sprintf("Glob: %s is not a directory; path must be a directory", start))
	}
	hits, err := search.Glob(ctx, p.root, start, pattern, search.GlobOptions{Workers: p.workers, Hidden: p.hiddenInRoot()})
	if err != nil {
		return tool.Error("Glob: " + err.Error())
	}
	if len(hits) == 0 {
		return tool.Text("No files found")
	}
	sort.Slice(hits, func(i, j int) bool {
		if !hits[i].MTime.Equal(hits[j].MTime) {
			return hits[i].MTime.After(hits[j].MTime)
		}
		return hits[i].Path < hits[j].Path
	})
	var b strings.Builder
	n := min(len(hits), globMaxResults)
	for _, h := range hits[:n] {
		b.WriteString(h.Path)
		b.WriteByte('\n')
	}
	if len(hits) > n {
		fmt.Fprintf(&b, "[%d files matched; showing the %d most recently modified. Use a more specific pattern or path.]\n", len(hits), n)
	}
	return tool.Text(search.CapText(b.String(), p.maxOut))
}
