package search

import (
	"io/fs"
	"os"
	"sync/atomic"
	"syscall"

	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

// walkDir is a directory the walk has opened as an *os.Root of its own, so that its entries
// are opened with one openat relative to it instead of a walk of every component from the
// tool's root (which cost a GOROOT/src search five opens and five closes per file). Containment
// is unchanged: the directory was itself opened through its parent's Root, an os.Root never
// resolves a name outside itself, and a directory swapped for a symlink after the listing is
// either refused or followed only inside the root, as before.
//
// A walkDir is shared by the items queued from its listing and closed when the last of them is
// done: refs counts the listing itself plus every queued child.
type walkDir struct {
	root  *os.Root
	refs  atomic.Int32
	close func() // closes root; nil for a Root the walk does not own
}

// retain adds n holders.
func (d *walkDir) retain(n int32) {
	if d != nil {
		d.refs.Add(n)
	}
}

// release drops one holder and closes the directory after the last.
func (d *walkDir) release() {
	if d != nil && d.refs.Add(-1) == 0 && d.close != nil {
		d.close()
	}
}

// openDir opens the directory of item it: through its parent's Root when the walk has one,
// else (the walk's start) through the tool's root.
func openDir(c *rootfs.Root, it walkItem) (*walkDir, error) {
	var (
		r   *os.Root
		err error
	)
	if it.parent != nil {
		r, err = it.parent.root.OpenRoot(it.name())
	} else {
		r, err = c.FS().OpenRoot(c.Rel(it.abs))
	}
	if err != nil {
		return nil, c.Escaped(err, it.abs)
	}
	d := &walkDir{root: r}
	d.close = func() { _ = r.Close() }
	return d, nil
}

// name is the entry's last path element.
func (f walkFile) name() string {
	for i := len(f.abs) - 1; i >= 0; i-- {
		if f.abs[i] == '/' {
			return f.abs[i+1:]
		}
	}
	return f.abs
}

// openFile opens the entry with flags, relative to its directory's Root when the walk has one.
func (f walkFile) openFile(c *rootfs.Root, flags int) (*os.File, error) {
	var (
		file *os.File
		err  error
	)
	if f.parent != nil {
		file, err = f.parent.root.OpenFile(f.name(), flags, 0)
	} else {
		file, err = c.FS().OpenFile(c.Rel(f.abs), flags, 0)
	}
	return file, c.Escaped(err, f.abs)
}

// stat follows a symlink that stays inside the root, like *rootfs.Root.stat.
func (f walkFile) stat(c *rootfs.Root) (os.FileInfo, error) {
	if f.parent == nil {
		return c.Stat(f.abs)
	}
	fi, err := f.parent.root.Stat(f.name())
	if err = c.Escaped(err, f.abs); err != nil {
		return c.Stat(f.abs) // an absolute symlink back into the root: resolved the long way
	}
	return fi, nil
}

// lstat does not follow a final symlink.
func (f walkFile) lstat(c *rootfs.Root) (os.FileInfo, error) {
	if f.parent == nil {
		return c.Lstat(f.abs)
	}
	fi, err := f.parent.root.Lstat(f.name())
	return fi, c.Escaped(err, f.abs)
}

// readDirTypes lists the directory r with the entry types the kernel reports (d_type). A
// directory opened through an os.Root lstats every entry while listing (the lazy FileInfo of a
// plain listing cannot be confined), a system call per file the walk has no use for: the
// listing is made instead on a duplicate of the descriptor, as a plain *os.File. Only names and
// types are read from it; every open still goes through r.
func readDirTypes(r *os.Root) []fs.DirEntry {
	f, err := r.Open(".")
	if err != nil {
		return nil
	}
	defer f.Close()
	var dup int
	ctlErr := withFd(f, func(fd uintptr) error {
		var e error
		dup, e = syscall.Dup(int(fd))
		return e
	})
	if ctlErr != nil {
		return nil
	}
	syscall.CloseOnExec(dup)
	plain := os.NewFile(uintptr(dup), f.Name())
	defer plain.Close()
	entries, _ := plain.ReadDir(-1)
	return entries
}

// withFd runs fn with f's descriptor without switching f to blocking mode (as Fd would).
func withFd(f *os.File, fn func(fd uintptr) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var inner error
	if err := rc.Control(func(fd uintptr) { inner = fn(fd) }); err != nil {
		return err
	}
	return inner
}
