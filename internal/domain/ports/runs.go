package ports

import "github.com/awf-dev/awf/internal/domain/runrecord"

// RunStore keeps runs' persisted state (.awf/runs/<id>/state.json), so the application can
// record, show and resume runs without touching files itself.
type RunStore interface {
	// Save writes rec atomically: a reader sees the previous record or this one, never a part.
	Save(rec runrecord.Record) error
	// Load reads the record of run id. A missing run is USER.RUN.NOT_FOUND (its hint naming the
	// nearest ids); a corrupt or truncated file a clear error, the file left as it was.
	Load(id string) (runrecord.Record, error)
	// List returns every readable record, newest first; unreadable ones are skipped.
	List() ([]runrecord.Record, error)
	// ToolCalls counts the tool calls in run id's activity file (0 when it has none).
	ToolCalls(id string) int
	// Alive reports whether process pid still runs.
	Alive(pid int) bool
	// Lock takes run id's resume lock; the function returned releases it. A lock already held
	// by a live process is an error.
	Lock(id string) (func(), error)
	// ReadSource reads a workflow file as it is now, for the copy a record keeps and the check
	// that it has not changed before a resume.
	ReadSource(file string) ([]byte, error)
}
