package rootfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// The file tools do every open, create, rename and directory listing through an *os.Root opened
// on the resolved root at Open (docs/decisions/0012-kernel-sandbox.md): the kernel then resolves each path component below
// the root's descriptor, so a symlink swapped in between Root.resolve and the open cannot
// lead outside the root (the lexical and symlink checks of resolve stay for their clear
// messages; os.Root is what makes them race-free). The one exception is on Linux: stat, lstat
// and the open of a regular file for reading (Read, Edit, .gitignore) are first tried with
// openat2(RESOLVE_BENEATH), the same confinement in one system call instead of os.Root's walk
// of a component at a time (beneath_linux.go has the reasons and the numbers).

// RegularFile is an open regular file as the file tools use it: an *os.File from the os.Root
// path, a beneathFile from the openat2 path on Linux.
type RegularFile interface {
	io.ReadCloser
	Stat() (fs.FileInfo, error)
}

// Rel maps a path inside the root (as resolve returns it) to the name os.Root takes.
func (c *Root) Rel(abs string) string {
	switch {
	case abs == c.root:
		return "."
	case c.root == "/":
		return strings.TrimPrefix(abs, "/")
	default:
		return strings.TrimPrefix(abs, c.root+"/")
	}
}

// Escaped maps os.Root's refusal of a path that left the root (a symlink swapped in after the
// check) to the same message as a path outside the root.
func (c *Root) Escaped(err error, path string) error {
	if err != nil && strings.Contains(err.Error(), "path escapes from parent") {
		return &OutsideError{path: path, root: c.root}
	}
	return err
}

// Stat follows symlinks that stay inside the root. os.Root refuses every absolute symlink, even
// one that points back inside the root, so on a refusal the path is resolved once more and the
// resolved path (which os.Root walks again) is used. On Linux openat2 answers first
// (beneath_linux.go); whatever it cannot answer takes the os.Root path.
func (c *Root) Stat(path string) (fs.FileInfo, error) {
	rel := c.Rel(path)
	if fi, ok := c.at.stat(rel, filepath.Base(rel), false); ok {
		return fi, nil
	}
	return c.statRoot(path)
}

// statRoot is stat through os.Root alone.
func (c *Root) statRoot(path string) (fs.FileInfo, error) {
	fi, err := c.fs.Stat(c.Rel(path))
	if err = c.Escaped(err, path); errors.As(err, new(*OutsideError)) {
		real, rerr := c.Resolve(path)
		if rerr != nil {
			return nil, rerr
		}
		fi, err = c.fs.Stat(c.Rel(real))
		return fi, c.Escaped(err, path)
	}
	return fi, err
}

// Lstat does not follow a final symlink.
func (c *Root) Lstat(path string) (fs.FileInfo, error) {
	rel := c.Rel(path)
	if fi, ok := c.at.stat(rel, filepath.Base(rel), true); ok {
		return fi, nil
	}
	fi, err := c.fs.Lstat(rel)
	return fi, c.Escaped(err, path)
}

// OpenRegular opens path for reading only if it is a regular file inside the root. Stat comes
// first so that a FIFO, device or socket is refused without ever being opened (docs/design.md#pitfalls: a
// FIFO read hung forever); O_NONBLOCK covers the race where the path is swapped for a FIFO
// between Stat and open, and the Fstat after open confirms what was really opened. On Linux the
// same steps go through openat2 first (beneath_linux.go says why); whatever that path
// cannot answer is redone here through os.Root, for the same result and message.
func (c *Root) OpenRegular(path string) (RegularFile, error) {
	if f, ok, err := c.at.openRegular(c.Rel(path), path); ok {
		return f, err
	}
	return c.openRegularRoot(path)
}

// openRegularRoot is openRegular through os.Root alone.
func (c *Root) openRegularRoot(path string) (*os.File, error) {
	fi, err := c.statRoot(path)
	if err != nil {
		var out *OutsideError
		switch {
		case errors.As(err, &out):
			return nil, err
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("file does not exist: %s (use Glob to find files)", path)
		}
		return nil, fmt.Errorf("cannot access %s: %v", path, err)
	}
	if err := RequireRegular(path, fi); err != nil {
		return nil, err
	}
	f, err := c.fs.OpenFile(c.Rel(path), os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		if err = c.Escaped(err, path); errors.As(err, new(*OutsideError)) {
			return nil, err
		}
		return nil, fmt.Errorf("cannot open %s: %v", path, err)
	}
	fi, err = f.Stat()
	if err == nil {
		err = RequireRegular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// lexical maps a model-supplied path to a clean absolute path when it lies in the root by its
// text alone; os.Root then resolves any symlink on the way, refusing one that leaves the root.
// Other paths (an absolute path through a symlinked alias of the root, ../) go through resolve.
// ok reports whether the fast path was taken.
func (c *Root) lexical(p string) (string, bool, error) {
	if p == "" || strings.IndexByte(p, 0) >= 0 {
		_, err := c.Resolve(p)
		return "", false, err
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(c.root, abs)
	}
	abs = filepath.Clean(abs)
	if c.Contains(abs) {
		return abs, true, nil
	}
	real, err := c.Resolve(p)
	return real, false, err
}

// OpenForRead opens a model-supplied path as a regular file for reading and returns the path it
// names. When os.Root refuses the lexical path (an absolute symlink, which os.Root never
// follows, or a link out of the root), the path is resolved as before and tried once more, so
// the message for a real escape is the usual "outside the allowed root".
func (c *Root) OpenForRead(p string) (RegularFile, string, error) {
	path, fast, err := c.lexical(p)
	if err != nil {
		return nil, "", err
	}
	f, err := c.OpenRegular(path)
	if fast && errors.As(err, new(*OutsideError)) {
		if path, err = c.Resolve(p); err != nil {
			return nil, "", err
		}
		f, err = c.OpenRegular(path)
	}
	return f, path, err
}

// RequireRegular explains why a non-regular file cannot be used, in the words the tools return
// to the model; nil for a regular file.
func RequireRegular(path string, fi fs.FileInfo) error {
	m := fi.Mode()
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fmt.Errorf("%s is a directory, not a file (use Glob to list its files)", path)
	case m&fs.ModeNamedPipe != 0:
		return fmt.Errorf("%s is a named pipe (FIFO); only regular files can be read", path)
	case m&fs.ModeSocket != 0:
		return fmt.Errorf("%s is a socket; only regular files can be read", path)
	case m&fs.ModeDevice != 0:
		return fmt.Errorf("%s is a device; only regular files can be read", path)
	default:
		return fmt.Errorf("%s is not a regular file (mode %s)", path, m)
	}
}
