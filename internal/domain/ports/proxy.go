package ports

import (
	"context"

	"github.com/awf-dev/awf/internal/domain/toolset"
)

// PrivateFiles keeps a run's private files: per-step directories only the user can enter,
// files only the user can read, all removed when the step ends. The application names the
// paths; the adapter touches the disk.
type PrivateFiles interface {
	// MakeDir creates a new directory with mode 0700 inside parent (the system's temp dir when
	// parent is empty) whose name starts with prefix, and returns its path.
	MakeDir(parent, prefix string) (string, error)
	// WriteFile replaces path with data, mode 0600, atomically: a reader sees the old file or
	// the whole new one, never half of it.
	WriteFile(path string, data []byte) error
	// RemoveAll removes path and everything under it; a path already gone is not an error.
	RemoveAll(path string) error
}

// Processes watches and stops processes the run did not start itself, such as an
// `awf mcp-serve` its agent's CLI spawned.
type Processes interface {
	// Alive reports whether pid is a live process (a zombie is not alive).
	Alive(pid int) bool
	// Terminate asks pid to stop (SIGTERM); a process already gone is not an error.
	Terminate(pid int) error
	// Kill stops pid at once (SIGKILL); a process already gone is not an error.
	Kill(pid int) error
	// WaitExit returns nil once pid is no longer alive, or ctx's error if ctx ends first: the
	// caller bounds the wait with a deadline instead of polling.
	WaitExit(ctx context.Context, pid int) error
}

// Environment is the process environment the application may read, as KEY=value pairs.
type Environment interface {
	Environ() []string
}

// ToolsetHandoff is how a run hands a step's toolset to the `awf mcp-serve` subprocess the
// agent's CLI spawns, and learns back that it served. The file formats are the adapter's.
type ToolsetHandoff interface {
	// WriteSpec writes spec to path as the subprocess's private (0600) config file.
	WriteSpec(path string, spec toolset.Spec) error
	// ReadReady reads the ready record the subprocess writes once it serves. An error means the
	// proxy never served (no record, or one without a pid).
	ReadReady(ctx context.Context, path string) (toolset.Ready, error)
}
