// Package rootfs is the confined filesystem of the built-in file tools: every path a model sends
// is resolved against one root directory with its symlinks, and every open, stat, create and
// rename then goes through a descriptor of that root (os.Root, and openat2 on Linux), so that a
// symlink swapped in between the check and the use cannot lead outside. It also refuses writes
// to awf's own files (protect.go) and replaces files atomically (write.go). The tools themselves
// live in package builtins; the tree walk and search that read through a Root, in package search.
package rootfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Root keeps file tools inside one directory. A lexical check is not enough (a Read once leaked
// an outside file and a Write wrote outside the root through a symlinked directory), so the path and every existing parent are resolved with their symlinks before the check, and
// the tools then operate on the resolved path, never on the one the model sent.
type Root struct {
	root string   // absolute, symlinks resolved, clean
	fs   *os.Root // opened on root: every open goes through it (open.go)
	// at is the root for openat2 lookups, the fast path of stat, lstat and openRegular on
	// Linux (beneath_linux.go); nil where openat2 cannot be used, and then fs does all.
	at *beneathDir
}

// Open confines to dir, which must be absolute, clean, resolved of its symlinks and a
// directory (the caller checks that, with its own messages). Close releases it.
func Open(dir string) (*Root, error) {
	fsys, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Root{root: dir, fs: fsys, at: openBeneathDir(dir)}, nil
}

// OpenPlain is Open without the openat2 fast path: every lookup goes through os.Root, as on a
// kernel without openat2. Benchmarks compare the two paths with it.
func OpenPlain(dir string) (*Root, error) {
	fsys, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Root{root: dir, fs: fsys}, nil
}

// Openat2 reports whether lookups take the openat2 fast path (Linux 5.6 and later, unless a
// seccomp filter refuses it), for benchmarks that compare it with os.Root alone.
func (c *Root) Openat2() bool { return c.at != nil }

// Path is the resolved root directory, the prefix of every path Resolve returns.
func (c *Root) Path() string { return c.root }

// FS is the os.Root every open goes through, for callers (the tree walk) that open relative to
// it themselves.
func (c *Root) FS() *os.Root { return c.fs }

// Close releases the root's descriptors. Calls in flight fail cleanly on a closed root.
func (c *Root) Close() {
	_ = c.fs.Close()
	c.at.close()
}

// OutsideError says a path resolves outside the root.
type OutsideError struct{ path, root string }

// Error says which path left which root, and what to send instead.
func (e *OutsideError) Error() string {
	return fmt.Sprintf("path %s is outside the allowed root %s; use a path inside the root (relative paths are resolved against it)", e.path, e.root)
}

// Resolve maps a model-supplied path (absolute, or relative to the root) to the real path the
// tools may use. The longest existing prefix has its symlinks resolved; the part that does not
// exist yet (a file Write will create) is appended unchanged. A result outside the root is an
// *OutsideError.
func (c *Root) Resolve(p string) (string, error) {
	if p == "" {
		return "", errors.New("the path is empty")
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", errors.New("the path contains a NUL byte")
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(c.root, abs)
	}
	abs = filepath.Clean(abs)
	existing, rest := abs, ""
	for {
		_, err := os.Stat(existing) // follows links: a dangling link counts as not existing
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return "", fmt.Errorf("cannot access %s: %w", existing, err)
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %w", existing, err)
	}
	full := filepath.Join(real, rest)
	if !c.Contains(full) {
		return "", &OutsideError{path: p, root: c.root}
	}
	return full, nil
}

// Contains reports whether the clean absolute path lies in the root.
func (c *Root) Contains(p string) bool {
	if c.root == "/" {
		return true
	}
	return p == c.root || strings.HasPrefix(p, c.root+string(filepath.Separator))
}
