package search

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

// walkOptions configure walkTree.
type walkOptions struct {
	root      *rootfs.Root                 // every directory is listed through root.fs
	workers   int                          // goroutines; less than one means one
	gitignore bool                         // honour .gitignore files
	maxDepth  int                          // directory levels below the start to enter; 0 = unlimited
	skipDir   func(rel, name string) bool  // prunes a directory when true; nil prunes none
	hidden    func(abs string) bool        // drops any entry, file or directory, when true; nil drops none
	visit     func(worker int, f walkFile) // called for every non-directory entry kept
}

// walkFile is one entry handed to walkOptions.visit.
type walkFile struct {
	abs  string      // absolute path
	rel  string      // path relative to the walk's anchor, "/"-separated
	mode fs.FileMode // type bits from the directory entry (no stat was made)
	// parent is the open directory holding the entry (nil for the walk's start): opens and
	// stats go through it.
	parent *walkDir
}

// walkItem is a unit of work: a directory to list or a file to visit.
type walkItem struct {
	walkFile
	dir   bool
	depth int
	ign   *ignoreNode
}

// walkTree visits every file under start with a pool of workers that list directories and visit
// files from one shared LIFO queue, so directory listing and file work overlap and no worker
// idles while another has a deep tree. It never follows symlinks (a symlinked directory is
// reported as a symlink entry, not entered: docs/design.md#pitfalls once saw one abort a whole search),
// always skips .git directories, and skips unreadable directories instead of failing. start's
// rel is startRel; ign holds the .gitignore rules that apply above start. A panic in visit is
// returned as an error after the walk stops.
func walkTree(ctx context.Context, start, startRel string, ign *ignoreNode, o walkOptions) error {
	workers := max(o.workers, 1)
	q := &walkQueue{}
	q.cond = sync.NewCond(&q.mu)
	q.items = append(q.items, walkItem{walkFile: walkFile{abs: start, rel: startRel, mode: fs.ModeDir}, dir: true, ign: ign})
	stop := context.AfterFunc(ctx, q.abort)
	defer stop()
	var (
		wg       sync.WaitGroup
		panicErr error
		panicMu  sync.Mutex
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					panicMu.Lock()
					panicErr = fmt.Errorf("internal error while walking: %v", r)
					panicMu.Unlock()
					q.abort()
				}
			}()
			var batch []walkItem
			for {
				it, ok := q.pop()
				if !ok {
					return
				}
				if it.dir {
					batch = listDir(it, o, batch[:0])
					q.finish(batch)
					continue
				}
				visitOne(w, it, o.visit)
				q.finish(nil)
			}
		}(w)
	}
	wg.Wait()
	if panicErr != nil {
		return panicErr
	}
	return ctx.Err()
}

// listDir reads one directory and returns its children to queue, applying the filters.
func listDir(it walkItem, o walkOptions, out []walkItem) []walkItem {
	defer it.parent.release()
	d, err := openDir(o.root, it)
	if err != nil {
		return out
	}
	d.retain(1) // the listing's own hold, released below once the children hold theirs
	defer d.release()
	entries := readDirTypes(d.root) // unsorted: the caller sorts results; partial lists are kept
	ign := it.ign
	if o.gitignore {
		for _, e := range entries {
			if e.Name() == ".gitignore" && e.Type().IsRegular() {
				ign = loadIgnore(o.root, ign, it.abs, it.rel)
				break
			}
		}
	}
	for _, e := range entries {
		name := e.Name()
		typ := e.Type()
		rel := name
		if it.rel != "" {
			rel = it.rel + "/" + name
		}
		isDir := typ.IsDir()
		// awf's own directory holds earlier runs' records (.awf/runs), never a search's answer.
		if isDir && (name == ".git" || name == ".awf" || name == "runs" && filepath.Base(it.abs) == ".awf") {
			continue
		}
		if o.gitignore && ign != nil && ign.ignored(rel, name, isDir) {
			continue
		}
		if o.hidden != nil && o.hidden(it.abs+"/"+name) {
			continue
		}
		child := walkItem{walkFile: walkFile{abs: it.abs + "/" + name, rel: rel, mode: typ, parent: d}, ign: ign}
		if isDir {
			if o.maxDepth > 0 && it.depth+1 >= o.maxDepth {
				continue
			}
			if o.skipDir != nil && o.skipDir(rel, name) {
				continue
			}
			child.dir, child.depth = true, it.depth+1
		}
		d.retain(1)
		out = append(out, child)
	}
	return out
}

// walkQueue is a LIFO work queue that knows when the walk is over: empty and nobody busy.
type walkQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	items   []walkItem
	busy    int
	stopped bool
}

func (q *walkQueue) pop() (walkItem, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.stopped {
		if q.busy == 0 {
			q.stopped = true
			q.cond.Broadcast()
			break
		}
		q.cond.Wait()
	}
	if q.stopped {
		return walkItem{}, false
	}
	it := q.items[len(q.items)-1]
	q.items[len(q.items)-1] = walkItem{}
	q.items = q.items[:len(q.items)-1]
	q.busy++
	return it, true
}

// finish marks one popped item done and queues what it produced.
func (q *walkQueue) finish(more []walkItem) {
	q.mu.Lock()
	if q.stopped {
		releaseAll(more) // never popped: their directories must still be closed
	} else {
		q.items = append(q.items, more...)
	}
	q.busy--
	if len(more) > 0 || q.busy == 0 {
		q.cond.Broadcast()
	}
	q.mu.Unlock()
}

// abort ends the walk early (cancellation or a panic); busy workers finish their current item.
func (q *walkQueue) abort() {
	q.mu.Lock()
	q.stopped = true
	releaseAll(q.items)
	q.items = nil
	q.cond.Broadcast()
	q.mu.Unlock()
}

// releaseAll drops the holds of items that will never be processed.
func releaseAll(items []walkItem) {
	for _, it := range items {
		it.parent.release()
	}
}

// visitOne visits a file and then drops its hold on its directory, even when visit panics.
func visitOne(w int, it walkItem, visit func(int, walkFile)) {
	defer it.parent.release()
	visit(w, it.walkFile)
}
