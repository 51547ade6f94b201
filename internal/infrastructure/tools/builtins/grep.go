package builtins

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
	"github.com/awf-dev/awf/internal/infrastructure/tools/search"
)

type grepArgs struct {
	Pattern    string  `json:"pattern"`
	Path       *string `json:"path"`
	Glob       *string `json:"glob"`
	Type       *string `json:"type"`
	OutputMode *string `json:"output_mode"`
	IgnoreCase bool    `json:"-i"`
	LineNums   *bool   `json:"-n"`
	After      *int    `json:"-A"`
	Before     *int    `json:"-B"`
	Context    *int    `json:"-C"`
	HeadLimit  *int    `json:"head_limit"`
	Multiline  bool    `json:"multiline"`
}

func (p *Provider) callGrep(ctx context.Context, raw json.RawMessage) tool.Result {
	var a grepArgs
	if err := decodeArgs(raw, &a, "pattern"); err != nil {
		return tool.Error("Grep: " + err.Error())
	}
	opts, err := grepOptions(&a)
	if err != nil {
		return tool.Error("Grep: " + err.Error())
	}
	opts.Root, opts.MaxOut, opts.Workers, opts.Hidden = p.root, p.maxOut, p.workers, p.hiddenInRoot()
	g, err := search.NewGrep(opts)
	if err != nil {
		return tool.Error("Grep: " + err.Error())
	}
	base := p.root.Path()
	if a.Path != nil && *a.Path != "" {
		if base, err = p.root.Resolve(*a.Path); err != nil {
			return tool.Error("Grep: " + err.Error())
		}
	}
	if err := p.refuseHidden(base); err != nil {
		return tool.Error("Grep: " + err.Error())
	}
	fi, err := p.root.Stat(base)
	if err != nil {
		return tool.Error(fmt.Sprintf("Grep: path %s does not exist or cannot be accessed: %v", base, err))
	}
	switch {
	case fi.IsDir():
		out, err := g.Tree(ctx, base)
		if err != nil {
			return tool.Error("Grep: " + err.Error())
		}
		return tool.Text(out)
	case fi.Mode().IsRegular():
		return tool.Text(g.File(base))
	default:
		return tool.Error("Grep: " + rootfs.RequireRegular(base, fi).Error())
	}
}

// grepOptions checks the arguments the search engine takes as given: the output mode's
// spelling and the ranges of the numbers. Type, glob and pattern are checked by search.NewGrep.
func grepOptions(a *grepArgs) (search.GrepOptions, error) {
	o := search.GrepOptions{Pattern: a.Pattern, IgnoreCase: a.IgnoreCase, Multiline: a.Multiline, Mode: search.FilesWithMatches, LineNums: true}
	if a.OutputMode != nil {
		switch *a.OutputMode {
		case "files_with_matches":
		case "content":
			o.Mode = search.Content
		case "count":
			o.Mode = search.Count
		default:
			return o, fmt.Errorf("argument \"output_mode\" must be \"content\", \"files_with_matches\" or \"count\", got %q", *a.OutputMode)
		}
	}
	for _, n := range []struct {
		name string
		v    *int
	}{{"-A", a.After}, {"-B", a.Before}, {"-C", a.Context}, {"head_limit", a.HeadLimit}} {
		if n.v != nil && *n.v < 0 {
			return o, fmt.Errorf("argument %q must be >= 0, got %d", n.name, *n.v)
		}
	}
	if a.Context != nil {
		o.Before, o.After = *a.Context, *a.Context
	}
	if a.Before != nil {
		o.Before = *a.Before
	}
	if a.After != nil {
		o.After = *a.After
	}
	if a.LineNums != nil {
		o.LineNums = *a.LineNums
	}
	if a.HeadLimit != nil {
		o.HeadLimit = *a.HeadLimit
	}
	if a.Type != nil {
		o.Type = *a.Type
	}
	if a.Glob != nil {
		o.Glob = *a.Glob
	}
	return o, nil
}
