package activitylog

import (
	"context"
	"errors"
	"os"
	"sync"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/privatefs"
)

// Appender is the sink of one long-lived writer (a step's tool router): Append behaves as
// FileStore.Append, one line in one write() under an exclusive flock, but on a file opened once,
// so a tool call pays one write and two flocks instead of also a mkdir, an open and a close.
// Nothing is buffered: a record is on disk (in the page cache) before Append returns, so none is
// lost when the process ends, however it ends. After Close, Append falls back to FileStore's
// open-write-close. Safe for concurrent use.
type Appender struct {
	Store FileStore

	mu     sync.Mutex
	f      *os.File
	closed bool
}

// Append writes r as one line; see FileStore.Append.
func (a *Appender) Append(ctx context.Context, r activity.Record) error {
	if a.Store.Path == "" {
		return a.Store.Append(ctx, r) // reports the wiring bug
	}
	line, err := Encode(r.Redacted(a.Store.Redactor))
	if err != nil {
		return fault.Wrap(err, fault.SystemActivityWriteFailed, "cannot encode activity record %s", r.ID)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return a.Store.Append(ctx, r)
	}
	if a.f == nil {
		f, err := privatefs.OpenAppend(a.Store.Path) // never through a link in the run directory
		if err != nil {
			return a.Store.writeErr(err)
		}
		a.f = f
	}
	if err := lockFile(ctx, a.f); err != nil {
		return a.Store.writeErr(err)
	}
	_, werr := a.f.Write(line)
	uerr := unlockFile(a.f)
	if err := errors.Join(werr, uerr); err != nil {
		// Start from a fresh open next time (the file may have been replaced or the disk freed).
		_ = a.f.Close()
		a.f = nil
		return a.Store.writeErr(err)
	}
	return nil
}

// Close closes the file; later records are still written, each opening the file itself.
func (a *Appender) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	if a.f == nil {
		return nil
	}
	err := a.f.Close()
	a.f = nil
	return err
}
