// Package activitylog stores activity records as JSON lines, one file per run
// (.awf/runs/<run id>/activity.jsonl). Several processes append to the same file at once (awf run
// and every `awf mcp-serve` it spawns), so each record is one write of one line, under an
// advisory lock, on a file opened for appending.
package activitylog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/infrastructure/privatefs"
)

// FileName is the name of a run's activity file inside its run directory.
const FileName = "activity.jsonl"

// FileStore is one activity file. The zero Logger is silent; List uses it to report skipped
// lines. A FileStore holds no open file, so a value can be copied and used from any goroutine or
// process.
type FileStore struct {
	Path   string
	Logger *zap.Logger
	// Redactor masks secrets in every record before it is written; nil writes records as given
	// (the router has already masked them; this is the last line of defence for any writer).
	Redactor *redact.Redactor
}

// RunFile returns the activity file of run runID under runsDir.
func RunFile(runsDir, runID string) string {
	return filepath.Join(runsDir, runID, FileName)
}

// Append writes r as one line. The file is created 0600 (its directory 0700): records hold tool
// arguments, which may be private. The line goes out in a single write() on an O_APPEND file
// under an exclusive flock, so concurrent writers, in this process or others, never interleave.
// Waiting for the lock honours ctx.
func (s FileStore) Append(ctx context.Context, r activity.Record) error {
	if s.Path == "" {
		return fault.New(fault.SystemActivityWriteFailed, "activity store has no file path").WithHint("this is an awf wiring bug; please report it")
	}
	line, err := Encode(r.Redacted(s.Redactor))
	if err != nil {
		return fault.Wrap(err, fault.SystemActivityWriteFailed, "cannot encode activity record %s", r.ID)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := privatefs.OpenAppend(s.Path) // never through a link in the run directory
	if err != nil {
		return s.writeErr(err)
	}
	defer f.Close()
	if err := lockFile(ctx, f); err != nil {
		return s.writeErr(err)
	}
	_, werr := f.Write(line)
	uerr := unlockFile(f)
	cerr := f.Close()
	if err := errors.Join(werr, uerr, cerr); err != nil {
		return s.writeErr(err)
	}
	return nil
}

func (s FileStore) writeErr(err error) error {
	return fault.Wrap(err, fault.SystemActivityWriteFailed, "cannot append to activity file %s", s.Path).
		WithHint("check that the directory is writable and the disk is not full")
}

// List returns the records that pass f, in file (time) order. Malformed lines are skipped, never
// fatal: one torn or hand-edited line must not hide a run's history. They are counted and, when a
// Logger is set, reported; use Scan to get the count. A missing file holds no records.
func (s FileStore) List(ctx context.Context, f activity.Filter) ([]activity.Record, error) {
	recs, rep, err := s.Scan(ctx, f)
	if err != nil {
		return nil, err
	}
	if rep.Skipped > 0 && s.Logger != nil {
		s.Logger.Warn("skipped malformed lines in activity file",
			zap.String("file", s.Path), zap.Int("skipped", rep.Skipped), zap.Strings("examples", rep.Problems))
	}
	return recs, nil
}

// Scan is List that also reports the lines it skipped.
func (s FileStore) Scan(ctx context.Context, f activity.Filter) ([]activity.Record, ScanReport, error) {
	var out []activity.Record
	rep, err := s.scan(ctx, func(r activity.Record) bool {
		if f.Match(r) {
			out = append(out, r)
		}
		return true
	})
	return out, rep, err
}

// Get returns the record with the given id. A unique prefix of at least MinIDPrefix characters
// also matches, so ids can be copied shortened from a table.
func (s FileStore) Get(ctx context.Context, id string) (activity.Record, error) {
	var exact *activity.Record
	var prefixed []activity.Record
	_, err := s.scan(ctx, func(r activity.Record) bool {
		switch {
		case r.ID == id:
			exact = &r
			return false
		case len(id) >= MinIDPrefix && len(r.ID) > len(id) && r.ID[:len(id)] == id:
			prefixed = append(prefixed, r)
		}
		return true
	})
	if err != nil {
		return activity.Record{}, err
	}
	switch {
	case exact != nil:
		return *exact, nil
	case len(prefixed) == 1:
		return prefixed[0], nil
	case len(prefixed) > 1:
		ids := make([]string, 0, 5)
		for _, r := range prefixed[:min(5, len(prefixed))] {
			ids = append(ids, r.ID)
		}
		return activity.Record{}, fault.New(fault.UserActivityAmbiguousID, "activity id prefix %q matches %d records (%v…)", id, len(prefixed), ids).
			WithHint("give more characters of the id")
	default:
		return activity.Record{}, fault.New(fault.UserActivityNotFound, "no activity record with id %q in %s", id, s.Path).
			WithHint("run `awf activity list` to see the ids, or pass --run to pick another run")
	}
}

// MinIDPrefix is the shortest id prefix Get accepts.
const MinIDPrefix = 6

// FindRunFiles maps every run id under runsDir (a directory per run) to its activity file, for
// `awf activity list` across runs and `--run ID`. Runs without an activity file are left out; a
// missing runsDir means no runs yet.
func FindRunFiles(runsDir string) (map[string]string, error) {
	entries, err := os.ReadDir(runsDir)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fault.Wrap(err, fault.SystemActivityReadFailed, "cannot list runs in %s", runsDir)
	}
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p := RunFile(runsDir, e.Name())
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			out[e.Name()] = p
		}
	}
	return out, nil
}

// ScanReport says how much of a file was read and what was skipped.
type ScanReport struct {
	Lines    int      // non-empty lines read
	Skipped  int      // malformed or oversized lines skipped
	Problems []string // the first few problems, "line N: reason"
}

const maxProblems = 5

func (r *ScanReport) skip(line int, reason string) {
	r.Skipped++
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, fmt.Sprintf("line %d: %s", line, reason))
	}
}
