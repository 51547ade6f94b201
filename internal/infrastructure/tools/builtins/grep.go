package builtins

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/awf-dev/awf/internal/domain/tool"
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

type grepMode int

const (
	modeFiles grepMode = iota
	modeContent
	modeCount
)

// storeBudget bounds the content-mode output kept from the parallel pass; files beyond it are
// searched again, in output order, only if the output still has room for them.
const storeBudget = 8 << 20

// grepPlan is a validated Grep request.
type grepPlan struct {
	m             *matcher
	mode          grepMode
	lineNums      bool
	before, after int
	headLimit     int
	typ           *nameFilter
	glob          string // doublestar pattern, "" for none
	globNeg       bool
	globBase      bool // the glob has no "/": match the file name only
	maxOut        int
	root          confiner // files are opened through root.fs
}

// fileResult is what the search found in one file.
type fileResult struct {
	path   string
	mtime  int64
	count  int
	out    []byte
	stored bool // out holds the file's content-mode output
	more   bool // out stopped at a budget before the file's last match
}

func (p *Provider) callGrep(ctx context.Context, raw json.RawMessage) tool.Result {
	var a grepArgs
	if err := decodeArgs(raw, &a, "pattern"); err != nil {
		return tool.Error("Grep: " + err.Error())
	}
	plan, err := newGrepPlan(&a, p.maxOut)
	if err != nil {
		return tool.Error("Grep: " + err.Error())
	}
	plan.root = p.root
	base := p.root.root
	if a.Path != nil && *a.Path != "" {
		if base, err = p.root.resolve(*a.Path); err != nil {
			return tool.Error("Grep: " + err.Error())
		}
	}
	fi, err := p.root.stat(base)
	if err != nil {
		return tool.Error(fmt.Sprintf("Grep: path %s does not exist or cannot be accessed: %v", base, err))
	}
	var (
		results []fileResult
		errs    []string
	)
	switch {
	case fi.IsDir():
		results, errs, err = p.grepTree(ctx, plan, base)
	case fi.Mode().IsRegular():
		results, errs = plan.grepOne(base)
	default:
		return tool.Error("Grep: " + requireRegular(base, fi).Error())
	}
	if err != nil {
		return tool.Error("Grep: " + err.Error())
	}
	return tool.Text(plan.render(results, errs))
}

func newGrepPlan(a *grepArgs, maxOut int) (*grepPlan, error) {
	plan := &grepPlan{mode: modeFiles, lineNums: true, maxOut: maxOut}
	if a.OutputMode != nil {
		switch *a.OutputMode {
		case "files_with_matches":
		case "content":
			plan.mode = modeContent
		case "count":
			plan.mode = modeCount
		default:
			return nil, fmt.Errorf("argument \"output_mode\" must be \"content\", \"files_with_matches\" or \"count\", got %q", *a.OutputMode)
		}
	}
	for _, n := range []struct {
		name string
		v    *int
	}{{"-A", a.After}, {"-B", a.Before}, {"-C", a.Context}, {"head_limit", a.HeadLimit}} {
		if n.v != nil && *n.v < 0 {
			return nil, fmt.Errorf("argument %q must be >= 0, got %d", n.name, *n.v)
		}
	}
	if a.Context != nil {
		plan.before, plan.after = *a.Context, *a.Context
	}
	if a.Before != nil {
		plan.before = *a.Before
	}
	if a.After != nil {
		plan.after = *a.After
	}
	if a.LineNums != nil {
		plan.lineNums = *a.LineNums
	}
	if a.HeadLimit != nil {
		plan.headLimit = *a.HeadLimit
	}
	if a.Type != nil && *a.Type != "" {
		f, ok := typeFilter(*a.Type)
		if !ok {
			return nil, fmt.Errorf("unknown file type %q for argument \"type\"; known types: %s (or use glob)", *a.Type, typeNames())
		}
		plan.typ = f
	}
	if a.Glob != nil && *a.Glob != "" {
		g := filepath.ToSlash(*a.Glob)
		if rest, ok := strings.CutPrefix(g, "!"); ok {
			plan.globNeg, g = true, rest
		}
		g = strings.TrimPrefix(g, "./")
		if g == "" || !doublestar.ValidatePattern(g) {
			return nil, fmt.Errorf("argument \"glob\" is not a valid glob pattern: %q", *a.Glob)
		}
		plan.glob, plan.globBase = g, !strings.Contains(g, "/")
	}
	m, err := compileMatcher(a.Pattern, a.IgnoreCase, a.Multiline)
	if err != nil {
		return nil, err
	}
	plan.m = m
	return plan, nil
}

// wantFile applies type and glob to a file found by the walk (rel is relative to the search
// path).
func (g *grepPlan) wantFile(rel, name string) bool {
	if g.typ != nil && !g.typ.match(name) {
		return false
	}
	if g.glob == "" {
		return true
	}
	subject := rel
	if g.globBase {
		subject = name
	}
	return doublestar.MatchUnvalidated(g.glob, subject) != g.globNeg
}

// skipDir prunes directories excluded by a negated glob ("!vendor", "!**/testdata").
func (g *grepPlan) skipDir(rel, name string) bool {
	if !g.globNeg {
		return false
	}
	if g.globBase {
		return doublestar.MatchUnvalidated(g.glob, name)
	}
	return doublestar.MatchUnvalidated(g.glob, rel)
}

// grepTree searches a directory with a worker per CPU. Ignore rules of the directories between
// the root and base apply below base too.
func (p *Provider) grepTree(ctx context.Context, plan *grepPlan, base string) ([]fileResult, []string, error) {
	startRel, _ := filepath.Rel(p.root.root, base)
	startRel = filepath.ToSlash(startRel)
	if startRel == "." {
		startRel = ""
	}
	var ign *ignoreNode
	if startRel != "" {
		dir, rel := p.root.root, ""
		ign = loadIgnore(p.root, nil, dir, rel)
		parts := strings.Split(startRel, "/")
		for _, part := range parts[:len(parts)-1] {
			dir += "/" + part
			rel = strings.TrimPrefix(rel+"/"+part, "/")
			ign = loadIgnore(p.root, ign, dir, rel)
		}
	}
	workers := searchWorkers()
	type workerState struct {
		r       fileReader
		m       *matcher
		results []fileResult
		errs    []string
	}
	states := make([]workerState, workers)
	for i := range states {
		states[i].m = plan.m.clone()
	}
	var stored atomic.Int64
	prefix := ""
	if startRel != "" {
		prefix = startRel + "/"
	}
	err := walkTree(ctx, base, startRel, ign, walkOptions{
		root:      p.root,
		workers:   workers,
		gitignore: true,
		skipDir: func(rel, name string) bool {
			return plan.skipDir(strings.TrimPrefix(rel, prefix), name)
		},
		visit: func(w int, f walkFile) {
			if !f.mode.IsRegular() {
				return // symlinks, FIFOs, sockets, devices: never opened
			}
			name := f.rel[strings.LastIndexByte(f.rel, '/')+1:]
			if !plan.wantFile(strings.TrimPrefix(f.rel, prefix), name) {
				return
			}
			st := &states[w]
			res, err := plan.searchFile(&st.r, st.m, f, &stored)
			if err != nil {
				st.errs = append(st.errs, fmt.Sprintf("%s: %v", f.abs, err))
				return
			}
			if res.count > 0 {
				st.results = append(st.results, res)
			}
		},
	})
	if err != nil {
		return nil, nil, err
	}
	var (
		results []fileResult
		errs    []string
	)
	for i := range states {
		results = append(results, states[i].results...)
		errs = append(errs, states[i].errs...)
	}
	return results, errs, nil
}

// grepOne searches one file named explicitly; filters and ignore rules do not apply to it.
func (g *grepPlan) grepOne(path string) ([]fileResult, []string) {
	var (
		r      fileReader
		stored atomic.Int64
	)
	res, err := g.searchFile(&r, g.m.clone(), walkFile{abs: path}, &stored)
	if err != nil {
		return nil, []string{fmt.Sprintf("%s: %v", path, err)}
	}
	if res.count == 0 {
		return nil, nil
	}
	return []fileResult{res}, nil
}

// searchFile loads and searches one file. Binary files (a NUL byte) yield no matches. In
// content mode the formatted lines are kept while stored stays under storeBudget.
func (g *grepPlan) searchFile(r *fileReader, m *matcher, f walkFile, stored *atomic.Int64) (fileResult, error) {
	path := f.abs
	l, err := r.load(g.root, f)
	if err != nil {
		if err == errNotRegular {
			return fileResult{}, nil
		}
		return fileResult{}, err
	}
	defer l.release()
	res := fileResult{path: path, mtime: l.mtime}
	fault := guardFaults(func() {
		data := l.data
		if bytes.IndexByte(data[:min(len(data), binarySniffBytes)], 0) >= 0 {
			return
		}
		switch g.mode {
		case modeFiles:
			m.matchLines(data, func(int, int) bool { res.count = 1; return false })
		case modeCount:
			m.matchLines(data, func(int, int) bool { res.count++; return true })
		case modeContent:
			if stored.Load() >= storeBudget {
				// Over budget: only note that the file matches; render searches it again.
				m.matchLines(data, func(int, int) bool { res.count = 1; return false })
				break
			}
			w := g.newContentWriter(path, data)
			m.matchLines(data, func(ls, le int) bool {
				res.count++
				return w.match(ls, le)
			})
			if res.count > 0 {
				w.finish()
				res.out, res.stored, res.more = w.out, true, w.full
				stored.Add(int64(len(w.out)))
			}
		}
		// A NUL past the sniffed prefix still marks the file binary (as ripgrep does);
		// checked only for files with matches, so the common no-match case costs nothing.
		if res.count > 0 && len(data) > binarySniffBytes && bytes.IndexByte(data[binarySniffBytes:], 0) >= 0 {
			res = fileResult{}
		}
	})
	if fault != nil {
		return fileResult{}, fault
	}
	return res, nil
}

func (g *grepPlan) newContentWriter(path string, data []byte) *contentWriter {
	return &contentWriter{
		path: path, data: data, lineNums: g.lineNums, before: g.before, after: g.after,
		maxBytes: g.maxOut + 1, maxLines: g.headLimit,
	}
}

// clone gives a goroutine its own matcher (the literal finder keeps per-search state).
func (m *matcher) clone() *matcher {
	c := *m
	c.find = m.find.clone()
	return &c
}
