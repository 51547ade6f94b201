// Package runindex answers the list of runs (awf history, the API's lists, the runs page) from
// an index file, .awf/runs/.index.json, instead of decoding every state.json: each entry holds
// a run's record without its steps and source, with the stamps (size, modification time,
// inode) of its state.json, journal and activity file when they were read. A list stats each
// run's state.json, and a running run's journal and activity file too, and reads again only
// what changed, so the index stays in step with the directories whoever writes them (awf run,
// awf resume, another awf serve), and is rebuilt when missing or unreadable
// (docs/decisions/0032-serve-and-live-pages.md). The runs directory itself is read again only
// when its link count says a run directory was made or removed.
package runindex

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
)

// FileName is the index's name inside .awf/runs (a dot name, so it is never taken for a run).
const FileName = ".index.json"

// maxIndex bounds the index read: 10,000 runs take about 1 MB.
const maxIndex = 256 << 20

// Store is a run store whose List and ToolCalls come from the index; everything else is the
// file store's.
type Store struct {
	runstore.Store

	mu    sync.Mutex
	calls map[string]int // tool calls by run, from the last List
}

// New is the indexed store of the project at root.
func New(root, activityFile string) *Store {
	return &Store{Store: runstore.Store{Root: root, ActivityFile: activityFile}}
}

// entryOf is the index entry of rec.
func entryOf(rec runrecord.Record) entry {
	e := entry{ID: rec.ID, Workflow: rec.Workflow, Status: rec.Status, Current: rec.Current, PID: int64(rec.PID),
		Started: rec.Started.UnixNano(), Updated: rec.Updated.UnixNano(), Error: rec.Error, Resumed: int64(rec.Resumed), Active: rec.Active,
		Masked: slices.Concat(rec.Masked, redact.SecretInputValues(rec.Inputs))}
	if !rec.Ended.IsZero() {
		e.Ended = rec.Ended.UnixNano()
	}
	return e
}

// record is the entry as the record a list returns: no steps, source, files or inputs.
func (e *entry) record() runrecord.Record {
	rec := runrecord.Record{Version: runrecord.Version, ID: e.ID, Workflow: e.Workflow, Status: e.Status, Current: e.Current, PID: int(e.PID),
		Started: time.Unix(0, e.Started), Updated: time.Unix(0, e.Updated), Error: e.Error, Resumed: int(e.Resumed), Active: e.Active, Masked: e.Masked}
	if e.Ended != 0 {
		rec.Ended = time.Unix(0, e.Ended)
	}
	return rec
}

func (s *Store) runsDir() string { return filepath.Join(s.Root, ".awf", "runs") }

// List implements ports.RunStore: every readable run, newest first, as runstore's List, with
// each record's steps, source, files and inputs left out (a list never shows them; Load has
// them) and the values of its secret-named inputs in its mask set instead.
func (s *Store) List() ([]runrecord.Record, error) {
	dir, err := os.Open(s.runsDir())
	if errors.Is(err, fs.ErrNotExist) {
		s.keepCalls(nil)
		return []runrecord.Record{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = dir.Close() }()
	sc := scan{s: s, fd: int(dir.Fd())}
	h, old := sc.read()
	nlink, err := dirLinks(sc.fd)
	if err != nil {
		return nil, err
	}
	// The directory's names are read again unless its link count says it holds just the run
	// directories the index has (and check finds each of them still there).
	entries, changed, ok := []entry(nil), false, nlink >= 2 && nlink == h.NLink && nlink-2 == h.Dirs && h.Dirs == int64(len(old))
	if ok {
		entries, changed, ok = sc.known(old)
	}
	if !ok {
		var dirs int64
		if entries, dirs, err = sc.all(dir, old); err != nil {
			return nil, err
		}
		changed = changed || len(entries) != len(old) || h != header{NLink: nlink, Dirs: dirs}
		h = header{NLink: nlink, Dirs: dirs}
		for i := range entries {
			changed = changed || sc.upd[i]
		}
	}
	if !slices.IsSortedFunc(entries, newestFirst) {
		slices.SortFunc(entries, newestFirst)
	}
	if changed {
		s.write(encode(h, entries))
	}
	return s.records(entries), nil
}

// records are the listed runs of entries (directories without a readable record left out),
// whose tool calls are kept for ToolCalls.
func (s *Store) records(entries []entry) []runrecord.Record {
	out := make([]runrecord.Record, 0, len(entries))
	calls := make(map[string]int, len(entries))
	for i := range entries {
		if e := &entries[i]; !e.Bad {
			out = append(out, e.record())
			calls[e.ID] = int(e.Calls)
		}
	}
	s.keepCalls(calls)
	return out
}

func (s *Store) keepCalls(calls map[string]int) {
	s.mu.Lock()
	s.calls = calls
	s.mu.Unlock()
}

// newestFirst orders entries as runstore's List does: latest start first, then by id.
func newestFirst(a, b entry) int {
	switch {
	case a.Started != b.Started:
		if a.Started > b.Started {
			return -1
		}
		return 1
	case a.ID > b.ID:
		return -1
	case a.ID < b.ID:
		return 1
	}
	return 0
}

// ToolCalls implements ports.RunStore: from the last List when it saw the run, else counted.
func (s *Store) ToolCalls(id string) int {
	s.mu.Lock()
	n, ok := s.calls[id]
	s.mu.Unlock()
	if ok {
		return n
	}
	return s.Store.ToolCalls(id)
}

// write replaces the index atomically (a private temp file, then a rename, which replaces a
// link in its place rather than following it); an index that cannot be written only costs
// the next list its speed.
func (s *Store) write(data []byte) {
	dir := s.runsDir()
	tmp, err := os.CreateTemp(dir, "."+FileName+".*.tmp")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(dir, FileName)) != nil {
		_ = os.Remove(tmp.Name())
	}
}

// scan is one list's pass over the runs directory open as fd.
type scan struct {
	s   *Store
	fd  int
	upd []bool // by entry of all: read again
}

// read loads the index; a missing, linked, corrupt or other-version one is empty (rebuilt).
func (c *scan) read() (header, []entry) {
	fd, err := unix.Openat(c.fd, FileName, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return header{}, nil
	}
	f := os.NewFile(uintptr(fd), FileName)
	defer func() { _ = f.Close() }()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > maxIndex {
		return header{}, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxIndex))
	if err != nil {
		return header{}, nil
	}
	h, entries, err := decode(data)
	if err != nil {
		return header{}, nil
	}
	return h, entries
}

// known checks the index's own entries, for a directory whose names did not change; ok is
// false when one of them is gone (its name may have been taken since: the names are read).
// The stats are most of a list's time: a few goroutines share them.
func (c *scan) known(old []entry) (entries []entry, changed, ok bool) {
	workers := min(runtime.GOMAXPROCS(0), 4, 1+len(old)/2000)
	var wg sync.WaitGroup
	var any, lost atomic.Bool
	for w := range workers {
		part := old[w*len(old)/workers : (w+1)*len(old)/workers]
		wg.Go(func() {
			for i := range part {
				e, gone, upd := c.check(part[i].ID, &part[i])
				if gone {
					lost.Store(true)
					return
				}
				if upd {
					part[i] = e
					any.Store(true)
				}
			}
		})
	}
	wg.Wait()
	if lost.Load() {
		return nil, any.Load(), false
	}
	return old, any.Load(), true
}

// all checks every run directory of dir against old, reading the directory's names; dirs
// counts its subdirectories, dot names included.
func (c *scan) all(dir *os.File, old []entry) (entries []entry, dirs int64, err error) {
	des, err := dir.ReadDir(-1)
	if err != nil {
		return nil, 0, err
	}
	byID := make(map[string]*entry, len(old))
	for i := range old {
		byID[old[i].ID] = &old[i]
	}
	entries, c.upd = make([]entry, 0, len(des)), make([]bool, 0, len(des))
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		dirs++
		id := de.Name()
		if strings.HasPrefix(id, ".") {
			continue
		}
		e, gone, upd := c.check(id, byID[id])
		if !gone {
			entries, c.upd = append(entries, e), append(c.upd, upd)
		}
	}
	return entries, dirs, nil
}

// check is run id's entry, read again where its files changed since prev (nil when the index
// has none); gone says its directory is no more; upd says the entry changed.
func (c *scan) check(id string, prev *entry) (e entry, gone, upd bool) {
	if prev == nil {
		prev = &entry{}
	}
	st, err := statAt(c.fd, id+"/"+runstore.FileName)
	if err != nil {
		if (errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)) && !c.isDir(id) {
			return entry{}, true, true
		}
		return entry{ID: id, Bad: true}, false, !prev.Bad || prev.State != stamp{}
	}
	e = *prev
	reload := prev.ID == "" || prev.State != st
	var js stamp
	if reload || prev.Status == runrecord.Running {
		js, _ = statAt(c.fd, id+"/"+runstore.JournalName) // zero when there is none
		reload = reload || js != prev.Journal
	}
	if reload {
		rec, err := c.s.Store.Load(id)
		if err != nil { // kept with its stamps: read again only once it changes
			return entry{ID: id, Bad: true, State: st, Journal: js}, false, true
		}
		e = entryOf(rec)
		e.State, e.Journal, e.Activity, e.Calls, upd = st, js, prev.Activity, prev.Calls, true
	}
	// A run that had ended when its unchanged record was read makes no more calls: its count
	// stands, and its activity file is not looked at again.
	if e.Bad || c.s.ActivityFile == "" || (!upd && e.Status != runrecord.Running) {
		return e, false, upd
	}
	as, _ := statAt(c.fd, id+"/"+c.s.ActivityFile)
	if as != e.Activity {
		e.Activity, e.Calls, upd = as, 0, true
		if as.Size > 0 {
			e.Calls = int64(c.s.Store.ToolCalls(id))
		}
	}
	return e, false, upd
}

// isDir says whether id is a directory of the runs directory (not a link to one).
func (c *scan) isDir(id string) bool {
	var st unix.Stat_t
	return unix.Fstatat(c.fd, id, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && uint32(st.Mode)&unix.S_IFMT == unix.S_IFDIR
}
