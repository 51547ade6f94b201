package search

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

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
	root          *rootfs.Root // files are opened through it
	workers       int
	hidden        func(abs string) bool
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

// Mode is what a search reports of each file, Grep's output_mode.
type Mode = grepMode

// The three modes, as ripgrep's -l, plain output and -c.
const (
	FilesWithMatches = modeFiles
	Content          = modeContent
	Count            = modeCount
)

// GrepOptions are a search's validated arguments (the tool checks their ranges and spellings)
// and its resources: the root it reads through and how many workers walk a tree.
type GrepOptions struct {
	Root       *rootfs.Root // every file is opened through it
	Pattern    string       // Go regexp syntax, with \p{..} classes as ripgrep spells them
	IgnoreCase bool
	Multiline  bool // . matches newlines and a match may span lines
	Mode       Mode
	LineNums   bool // content mode: number the lines
	Before     int  // content mode: lines of context before each match
	After      int  // content mode: lines of context after each match
	HeadLimit  int  // lines or files shown; 0 means all
	Type       string
	Glob       string // doublestar pattern; a leading "!" excludes
	MaxOut     int    // bytes of output
	// Workers is how many goroutines walk and search a tree; less than one means one. The
	// caller sizes it (a tree search uses every CPU it is given): nothing here reads the
	// runtime's settings.
	Workers int
	// Hidden drops what it says is hidden (credential stores under the root) from a tree
	// search, as if absent; nil hides nothing.
	Hidden func(abs string) bool
}

// Grep is a validated search, ready to run over a tree (Tree) or one file (File).
type Grep struct{ plan *grepPlan }

// NewGrep validates the type, the glob and the pattern, in that order, with messages that name
// the tool's argument.
func NewGrep(o GrepOptions) (*Grep, error) {
	plan := &grepPlan{mode: o.Mode, lineNums: o.LineNums, before: o.Before, after: o.After,
		headLimit: o.HeadLimit, maxOut: o.MaxOut, root: o.Root, workers: max(o.Workers, 1), hidden: o.Hidden}
	if o.Type != "" {
		f, ok := typeFilter(o.Type)
		if !ok {
			return nil, fmt.Errorf("unknown file type %q for argument \"type\"; known types: %s (or use glob)", o.Type, typeNames())
		}
		plan.typ = f
	}
	if o.Glob != "" {
		g := filepath.ToSlash(o.Glob)
		if rest, ok := strings.CutPrefix(g, "!"); ok {
			plan.globNeg, g = true, rest
		}
		g = strings.TrimPrefix(g, "./")
		if g == "" || !doublestar.ValidatePattern(g) {
			return nil, fmt.Errorf("argument \"glob\" is not a valid glob pattern: %q", o.Glob)
		}
		plan.glob, plan.globBase = g, !strings.Contains(g, "/")
	}
	m, err := compileMatcher(o.Pattern, o.IgnoreCase, o.Multiline)
	if err != nil {
		return nil, err
	}
	plan.m = m
	return &Grep{plan: plan}, nil
}

// Tree searches the directory base, a path inside the root, and renders what it found.
func (g *Grep) Tree(ctx context.Context, base string) (string, error) {
	results, errs, err := g.plan.grepTree(ctx, base)
	if err != nil {
		return "", err
	}
	return g.plan.render(results, errs), nil
}

// File searches the one regular file path, named explicitly: filters and ignore rules do not
// apply to it.
func (g *Grep) File(path string) string {
	results, errs := g.plan.grepOne(path)
	return g.plan.render(results, errs)
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

// grepTree searches a directory with g.workers workers. Ignore rules of the directories between
// the root and base apply below base too.
func (g *grepPlan) grepTree(ctx context.Context, base string) ([]fileResult, []string, error) {
	root := g.root
	startRel, _ := filepath.Rel(root.Path(), base)
	startRel = filepath.ToSlash(startRel)
	if startRel == "." {
		startRel = ""
	}
	var ign *ignoreNode
	if startRel != "" {
		dir, rel := root.Path(), ""
		ign = loadIgnore(root, nil, dir, rel)
		parts := strings.Split(startRel, "/")
		for _, part := range parts[:len(parts)-1] {
			dir += "/" + part
			rel = strings.TrimPrefix(rel+"/"+part, "/")
			ign = loadIgnore(root, ign, dir, rel)
		}
	}
	workers := g.workers
	type workerState struct {
		r       fileReader
		m       *matcher
		results []fileResult
		errs    []string
	}
	states := make([]workerState, workers)
	for i := range states {
		states[i].m = g.m.clone()
	}
	var stored atomic.Int64
	prefix := ""
	if startRel != "" {
		prefix = startRel + "/"
	}
	err := walkTree(ctx, base, startRel, ign, walkOptions{
		root:      root,
		workers:   workers,
		gitignore: true,
		hidden:    g.hidden,
		skipDir: func(rel, name string) bool {
			return g.skipDir(strings.TrimPrefix(rel, prefix), name)
		},
		visit: func(w int, f walkFile) {
			if !f.mode.IsRegular() {
				return // symlinks, FIFOs, sockets, devices: never opened
			}
			name := f.rel[strings.LastIndexByte(f.rel, '/')+1:]
			if !g.wantFile(strings.TrimPrefix(f.rel, prefix), name) {
				return
			}
			st := &states[w]
			res, err := g.searchFile(&st.r, st.m, f, &stored)
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
		if bytes.IndexByte(data[:min(len(data), BinarySniffBytes)], 0) >= 0 {
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
		if res.count > 0 && len(data) > BinarySniffBytes && bytes.IndexByte(data[BinarySniffBytes:], 0) >= 0 {
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
