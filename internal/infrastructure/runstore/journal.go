package runstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// JournalName is the run's journal inside its directory: one JSON entry a line, appended at
// each transition after the record state.json holds, and removed when the record is written
// whole again (docs/decisions/0014-persisted-runs-and-conversations.md).
const JournalName = "journal.jsonl"

// OpenJournal opens run id's journal for appending (made private, never through a link).
func (s Store) OpenJournal(id string) (runrecord.Journal, error) {
	if id == "" || id == "." || id == ".." || filepath.Base(id) != id {
		return nil, fault.New(fault.SystemFSRunState, "invalid run id %q", id)
	}
	f, err := os.OpenFile(filepath.Join(s.Dir(id), JournalName), os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fault.Wrap(err, fault.SystemFSRunState, "cannot open the journal of run %s", id)
	}
	return &journalFile{f: f}, nil
}

// journalFile appends entries with one write each. It does not sync: a write reaches the
// kernel before the next transition, so a crash of awf loses nothing; a crash of the machine
// may lose the last entries, which a resume then runs again. The whole record written at the
// run's end is synced.
type journalFile struct {
	f   *os.File
	buf bytes.Buffer
}

// Append implements runrecord.Journal.
func (j *journalFile) Append(e runrecord.Entry) error {
	j.buf.Reset()
	enc := json.NewEncoder(&j.buf) // ends the entry with its newline
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return err
	}
	_, err := j.f.Write(j.buf.Bytes())
	return err
}

// Close implements runrecord.Journal.
func (j *journalFile) Close() error { return j.f.Close() }

// replay applies the journal beside a record to it: entries the record already holds are
// skipped, and reading stops at the first line that is torn or not an entry (a crash in the
// middle of a write).
func replay(dir string, rec *runrecord.Record) error {
	data, err := readBounded(filepath.Join(dir, JournalName), syscall.O_NOFOLLOW)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil // torn last line
		}
		var e runrecord.Entry
		if json.Unmarshal(data[:i], &e) != nil || e.N == 0 {
			return nil
		}
		e.Status = runrecord.Canonical(e.Status)
		rec.Apply(e)
		data = data[i+1:]
	}
	return nil
}

// removeJournal removes the journal once the record holds all of it.
func removeJournal(dir string) error {
	err := os.Remove(filepath.Join(dir, JournalName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
