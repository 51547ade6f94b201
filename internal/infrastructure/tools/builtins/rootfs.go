package builtins

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
// on the resolved root at New (issue 12): the kernel then resolves each path component below
// the root's descriptor, so a symlink swapped in between confiner.resolve and the open cannot
// lead outside the root (the lexical and symlink checks of resolve stay for their clear
// messages; os.Root is what makes them race-free). The one exception is on Linux: stat, lstat
// and the open of a regular file for reading (Read, Edit, .gitignore) are first tried with
// openat2(RESOLVE_BENEATH), the same confinement in one system call instead of os.Root's walk
// of a component at a time (rootfs_beneath_linux.go has the reasons and the numbers).

// regularFile is an open regular file as the file tools use it: an *os.File from the os.Root
// path, a beneathFile from the openat2 path on Linux.
type regularFile interface {
	io.ReadCloser
	Stat() (fs.FileInfo, error)
}

// rel maps a path inside the root (as resolve returns it) to the name os.Root takes.
func (c confiner) rel(abs string) string {
	switch {
	case abs == c.root:
		return "."
	case c.root == "/":
		return strings.TrimPrefix(abs, "/")
	default:
		return strings.TrimPrefix(abs, c.root+"/")
	}
}

// escaped maps os.Root's refusal of a path that left the root (a symlink swapped in after the
// check) to the same message as a path outside the root.
func (c confiner) escaped(err error, path string) error {
	if err != nil && strings.Contains(err.Error(), "path escapes from parent") {
		return &outsideError{path: path, root: c.root}
	}
	return err
}

// stat follows symlinks that stay inside the root. os.Root refuses every absolute symlink, even
// one that points back inside the root, so on a refusal the path is resolved once more and the
// resolved path (which os.Root walks again) is used. On Linux openat2 answers first
// (rootfs_beneath_linux.go); whatever it cannot answer takes the os.Root path.
func (c confiner) stat(path string) (fs.FileInfo, error) {
	rel := c.rel(path)
	if fi, ok := c.at.stat(rel, filepath.Base(rel), false); ok {
		return fi, nil
	}
	return c.statRoot(path)
}

// statRoot is stat through os.Root alone.
func (c confiner) statRoot(path string) (fs.FileInfo, error) {
	fi, err := c.fs.Stat(c.rel(path))
	if err = c.escaped(err, path); errors.As(err, new(*outsideError)) {
		real, rerr := c.resolve(path)
		if rerr != nil {
			return nil, rerr
		}
		fi, err = c.fs.Stat(c.rel(real))
		return fi, c.escaped(err, path)
	}
	return fi, err
}

// lstat does not follow a final symlink.
func (c confiner) lstat(path string) (fs.FileInfo, error) {
	rel := c.rel(path)
	if fi, ok := c.at.stat(rel, filepath.Base(rel), true); ok {
		return fi, nil
	}
	fi, err := c.fs.Lstat(rel)
	return fi, c.escaped(err, path)
}

// openRegular opens path for reading only if it is a regular file inside the root. Stat comes
// first so that a FIFO, device or socket is refused without ever being opened (DESIGN §10: a
// FIFO read hung forever); O_NONBLOCK covers the race where the path is swapped for a FIFO
// between Stat and open, and the Fstat after open confirms what was really opened. On Linux the
// same steps go through openat2 first (rootfs_beneath_linux.go says why); whatever that path
// cannot answer is redone here through os.Root, for the same result and message.
func (c confiner) openRegular(path string) (regularFile, error) {
	if f, ok, err := c.at.openRegular(c.rel(path), path); ok {
		return f, err
	}
	return c.openRegularRoot(path)
}

// openRegularRoot is openRegular through os.Root alone.
func (c confiner) openRegularRoot(path string) (*os.File, error) {
	fi, err := c.statRoot(path)
	if err != nil {
		var out *outsideError
		switch {
		case errors.As(err, &out):
			return nil, err
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("file does not exist: %s (use Glob to find files)", path)
		}
		return nil, fmt.Errorf("cannot access %s: %v", path, err)
	}
	if err := requireRegular(path, fi); err != nil {
		return nil, err
	}
	f, err := c.fs.OpenFile(c.rel(path), os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		if err = c.escaped(err, path); errors.As(err, new(*outsideError)) {
			return nil, err
		}
		return nil, fmt.Errorf("cannot open %s: %v", path, err)
	}
	fi, err = f.Stat()
	if err == nil {
		err = requireRegular(path, fi)
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
func (c confiner) lexical(p string) (string, bool, error) {
	if p == "" || strings.IndexByte(p, 0) >= 0 {
		_, err := c.resolve(p)
		return "", false, err
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(c.root, abs)
	}
	abs = filepath.Clean(abs)
	if c.contains(abs) {
		return abs, true, nil
	}
	real, err := c.resolve(p)
	return real, false, err
}

// openForRead opens a model-supplied path as a regular file for reading and returns the path it
// names. When os.Root refuses the lexical path (an absolute symlink, which os.Root never
// follows, or a link out of the root), the path is resolved as before and tried once more, so
// the message for a real escape is the usual "outside the allowed root".
func (c confiner) openForRead(p string) (regularFile, string, error) {
	path, fast, err := c.lexical(p)
	if err != nil {
		return nil, "", err
	}
	f, err := c.openRegular(path)
	if fast && errors.As(err, new(*outsideError)) {
		if path, err = c.resolve(p); err != nil {
			return nil, "", err
		}
		f, err = c.openRegular(path)
	}
	return f, path, err
}
