// Package runstore keeps runs' persisted state as .awf/runs/<id>/state.json, written atomically
// (a private temp file in the same directory, then a rename), so a crash or a Ctrl+C at any
// moment leaves either the previous record or the new one, never a torn file; between two
// whole writes a run appends its transitions to journal.jsonl beside it, which Load applies.
package runstore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/infrastructure/privatefs"
)

// FileName is the record's name inside a run's directory.
const FileName = "state.json"

// lockName is the resume lock's name inside a run's directory.
const lockName = "resume.lock"

// maxRecord bounds how much of a state.json is read: a larger one is refused, not loaded (a
// variable so a test can lower it).
var maxRecord int64 = 256 << 20

// Store is the RunStore of a project: runs live under <Root>/.awf/runs.
type Store struct {
	Root string
	// ActivityFile is the name of a run's activity file, whose lines are its tool calls.
	ActivityFile string
}

// Dir is the directory of run id.
func (s Store) Dir(id string) string { return filepath.Join(s.Root, ".awf", "runs", id) }

func (s Store) runsDir() string { return filepath.Join(s.Root, ".awf", "runs") }

// Save implements ports.RunStore.
func (s Store) Save(rec runrecord.Record) error {
	if rec.ID == "" || strings.ContainsAny(rec.ID, `/\`) || rec.ID == "." || rec.ID == ".." {
		return fault.New(fault.SystemFSRunState, "invalid run id %q", rec.ID)
	}
	buf := encBufs.Get().(*bytes.Buffer)
	defer putBuf(buf)
	buf.Reset()
	enc := json.NewEncoder(buf) // ends the record with a newline
	enc.SetEscapeHTML(false)    // the file is read by awf and people, never embedded in HTML
	if err := enc.Encode(rec); err != nil {
		return fault.Wrap(err, fault.SystemFSRunState, "cannot encode the state of run %s", rec.ID)
	}
	if err := writeAtomic(s.Dir(rec.ID), FileName, buf.Bytes()); err != nil {
		return fault.Wrap(err, fault.SystemFSRunState, "cannot write the state of run %s", rec.ID)
	}
	if err := removeJournal(s.Dir(rec.ID)); err != nil { // the record holds it now
		return fault.Wrap(err, fault.SystemFSRunState, "cannot compact the journal of run %s", rec.ID)
	}
	return nil
}

// writeAtomic writes data to dir/name through a private temp file in dir and a rename.
// The directory is made only when the first create finds it missing: a save per transition
// should not pay a stat of every parent first.
func writeAtomic(dir, name string, data []byte) (err error) {
	f, err := os.CreateTemp(dir, "."+name+".*.tmp") // 0600
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		f, err = os.CreateTemp(dir, "."+name+".*.tmp")
	}
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = syncFile(f); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), filepath.Join(dir, name))
}

// encBufs holds the encoding buffers of Save: a record of a long run is hundreds of KB, encoded
// after every transition, and a fresh buffer each time is garbage the run does not need.
var encBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putBuf returns a buffer to the pool unless it grew past what is worth keeping.
func putBuf(b *bytes.Buffer) {
	if b.Cap() <= 4<<20 {
		encBufs.Put(b)
	}
}

// Load implements ports.RunStore.
func (s Store) Load(id string) (runrecord.Record, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return runrecord.Record{}, s.notFound(id)
	}
	file := filepath.Join(s.Dir(id), FileName)
	data, err := readBounded(file, syscall.O_NOFOLLOW)
	if errors.Is(err, fs.ErrNotExist) {
		return runrecord.Record{}, s.notFound(id)
	}
	if errors.Is(err, syscall.ELOOP) {
		return runrecord.Record{}, fault.New(fault.UserRunCorrupt, "the run state %s is a symbolic link: awf reads and writes a run's files only inside its directory", file).
			WithHint("remove the link (rm %q); the run cannot be shown or resumed without its own state.json", file)
	}
	if err != nil {
		return runrecord.Record{}, fault.Wrap(err, fault.UserRunCorrupt, "cannot read %s", file)
	}
	rec, err := decode(file, data)
	if err != nil {
		return rec, err
	}
	if err := replay(s.Dir(id), &rec); err != nil {
		return runrecord.Record{}, fault.Wrap(err, fault.UserRunCorrupt, "cannot read the journal of run %s", id).
			WithHint("the journal %s beside state.json must be a regular file of this run", filepath.Join(s.Dir(id), JournalName))
	}
	return rec, nil
}

// readBounded reads at most maxRecord bytes of file, opened with the extra flags.
func readBounded(file string, flags int) ([]byte, error) {
	// O_NONBLOCK: opening a named pipe for reading would wait for a writer; a file awf hashes
	// or loads must be regular, and a FIFO, socket or device is refused before any read.
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NONBLOCK|flags, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", file, st.Mode().Type())
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(f, maxRecord+1))
	if err != nil {
		return nil, err
	}
	if n > maxRecord {
		return nil, fmt.Errorf("larger than %d bytes", maxRecord)
	}
	return buf.Bytes(), nil
}

// decode parses a record, refusing a truncated, corrupt or newer one with a clear error.
func decode(file string, data []byte) (runrecord.Record, error) {
	var rec runrecord.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return runrecord.Record{}, fault.Wrap(err, fault.UserRunCorrupt, "the run state %s is corrupt or truncated", file).
			WithHint("the run cannot be shown or resumed; its directory was left as it was")
	}
	rec.Status = runrecord.Canonical(rec.Status) // older releases wrote succeeded and failed
	if rec.Version > runrecord.Version || rec.ID == "" || rec.Status == "" {
		return runrecord.Record{}, fault.New(fault.UserRunCorrupt, "the run state %s is not a run record this awf can read (version %d)", file, rec.Version).
			WithHint("it may have been written by a newer awf")
	}
	return rec, nil
}

// notFound is USER.RUN.NOT_FOUND with the nearest ids in its hint.
func (s Store) notFound(id string) error {
	ids := s.ids()
	err := fault.New(fault.UserRunNotFound, "no run %q in %s", id, s.runsDir())
	var near []string
	for _, c := range ids {
		if id != "" && strings.HasPrefix(c, id) {
			near = append(near, c)
		}
	}
	if len(near) == 0 {
		if sug := suggest.Closest(id, ids); sug != "" {
			near = []string{sug}
		}
	}
	if len(near) == 0 && len(ids) > 0 {
		near = ids[:min(3, len(ids))] // the newest
	}
	if len(near) == 0 {
		return err.WithHint("there are no runs yet: start one with awf run <workflow>")
	}
	return err.WithHint("nearest runs: %s (awf history lists them all)", strings.Join(near[:min(3, len(near))], ", "))
}

// ids are the run directories' names, newest first (ids start with their UTC start time).
func (s Store) ids() []string {
	entries, _ := os.ReadDir(s.runsDir())
	var ids []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			ids = append(ids, e.Name())
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(ids)))
	return ids
}

// List implements ports.RunStore.
func (s Store) List() ([]runrecord.Record, error) {
	var out []runrecord.Record
	for _, id := range s.ids() {
		rec, err := s.Load(id)
		if err != nil {
			continue // a run from before state files, or a corrupt one: status reports it
		}
		out = append(out, rec)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Started.After(out[j].Started) })
	return out, nil
}

// ToolCalls implements ports.RunStore: the activity file holds one JSON line per tool call.
func (s Store) ToolCalls(id string) int {
	if s.ActivityFile == "" {
		return 0
	}
	f, err := os.Open(filepath.Join(s.Dir(id), s.ActivityFile))
	if err != nil {
		return 0
	}
	defer func() { _ = f.Close() }()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			n++
		}
	}
	return n
}

// Alive implements ports.RunStore: signal 0 probes a process without touching it.
func (Store) Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Lock implements ports.RunStore with a file holding the locker's pid, made with O_EXCL; a
// lock left by a dead process is taken over.
func (s Store) Lock(id string) (func(), error) {
	file := filepath.Join(s.Dir(id), lockName)
	if err := privatefs.RealDir(s.Dir(id)); err != nil {
		return nil, fault.Wrap(err, fault.SystemFSRunState, "cannot lock run %s", id)
	}
	for range 2 {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			_, _ = f.WriteString(strconv.Itoa(os.Getpid()))
			_ = f.Close()
			return func() { _ = os.Remove(file) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fault.Wrap(err, fault.SystemFSRunState, "cannot lock run %s", id)
		}
		pid := lockHolder(file)
		if s.Alive(pid) {
			return nil, fault.New(fault.UserRunLocked, "run %s is being resumed by process %d", id, pid).
				WithHint("wait for it to finish; two resumes of one run at once are refused")
		}
		_ = os.Remove(file) // stale
	}
	return nil, fault.New(fault.UserRunLocked, "cannot take the lock of run %s", id)
}

// lockHolder is the pid a lock file holds, read without following a link (0 for a link).
func lockHolder(file string) int {
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return 0
	}
	defer func() { _ = f.Close() }()
	data, _ := io.ReadAll(io.LimitReader(f, 32))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

// ReadSource implements ports.RunStore.
func (Store) ReadSource(file string) ([]byte, error) {
	return readBounded(file, 0) // a workflow file may be a link, as any file a user names
}

// syncFile flushes the temp file before the rename; a variable so a benchmark can measure the
// cost without it.
var syncFile = func(f *os.File) error { return f.Sync() }
