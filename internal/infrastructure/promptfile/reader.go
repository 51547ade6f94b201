// Package promptfile reads the prompt files of agent steps (`prompt_file:`) for the run engine:
// regular files only, bounded in size, and cancellable, so a prompt_file that names a FIFO, a
// device or a huge file fails at once with a clear error instead of hanging awf or exhausting
// its memory (docs/design.md#pitfalls).
package promptfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

// DefaultMaxBytes bounds a prompt file when Reader.MaxBytes is not set: far more than any
// prompt, far less than would hurt.
const DefaultMaxBytes = 1 << 20

// chunk is how much is read between two looks at the context.
const chunk = 32 << 10

var _ ports.PromptSource = Reader{}

// Reader is the PromptSource of awf run.
type Reader struct {
	// MaxBytes bounds the file's size; 0 means DefaultMaxBytes.
	MaxBytes int64
}

// ReadPrompt returns the content of the regular file at path. It opens without blocking (a FIFO
// with no writer would otherwise block the open forever), refuses anything but a regular file,
// refuses a file larger than MaxBytes without reading it whole, and stops when ctx ends.
func (r Reader) ReadPrompt(ctx context.Context, path string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	limit := r.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", openError(path, err)
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return "", fault.Wrap(err, fault.UserAgentPromptFile, "cannot inspect prompt file %s", path)
	}
	if what := irregular(fi.Mode()); what != "" {
		return "", notRegular(path, what)
	}
	if fi.Size() > limit {
		return "", tooLarge(path, limit)
	}
	return readBounded(ctx, f, path, limit)
}

// readBounded reads at most limit bytes in chunks, checking ctx between them. A file that grew
// past limit since it was inspected is refused too.
func readBounded(ctx context.Context, f io.Reader, path string, limit int64) (string, error) {
	var out strings.Builder
	buf := make([]byte, chunk)
	lr := io.LimitReader(f, limit+1)
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		n, err := lr.Read(buf)
		out.Write(buf[:n])
		if int64(out.Len()) > limit {
			return "", tooLarge(path, limit)
		}
		if errors.Is(err, io.EOF) {
			return out.String(), nil
		}
		if err != nil {
			return "", fault.Wrap(err, fault.UserAgentPromptFile, "cannot read prompt file %s", path)
		}
	}
}

// irregular names what a non-regular file is ("" for a regular file).
func irregular(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	default:
		return "a special file (" + m.Type().String() + ")"
	}
}

func tooLarge(path string, limit int64) error {
	return fault.New(fault.UserAgentPromptFile, "prompt file %s is larger than %s", path, size(limit)).
		WithHint("keep prompts under %s: shorten it, or let the agent read the large material itself", size(limit))
}

func openError(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fault.Wrap(err, fault.UserAgentPromptFile, "prompt file %s does not exist", path).
			WithHint("check the path; a relative prompt_file is resolved against the project root")
	case errors.Is(err, fs.ErrPermission):
		return fault.Wrap(err, fault.UserAgentPromptFile, "prompt file %s cannot be opened: permission denied", path).
			WithHint("make the file readable by the user running awf")
	}
	// Some special files cannot even be opened (a socket): say what they are.
	if fi, serr := os.Stat(path); serr == nil {
		if what := irregular(fi.Mode()); what != "" {
			return notRegular(path, what)
		}
	}
	return fault.Wrap(err, fault.UserAgentPromptFile, "cannot open prompt file %s", path).
		WithHint("check that the path names a readable regular file")
}

func notRegular(path, what string) error {
	return fault.New(fault.UserAgentPromptFile, "prompt file %s is %s, not a regular file", path, what).
		WithHint("point prompt_file at a regular text file; to pass another program's output, write it to a file in an earlier step")
}

// size renders a byte count the way a user reads it.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
