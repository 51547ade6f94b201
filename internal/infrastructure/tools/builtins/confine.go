package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// confiner keeps file tools inside one directory. A lexical check is not enough (DESIGN §10:
// Read leaked an outside file and Write wrote outside the root through a symlinked directory),
// so the path and every existing parent are resolved with their symlinks before the check, and
// the tools then operate on the resolved path, never on the one the model sent.
type confiner struct {
	root string   // absolute, symlinks resolved, clean
	fs   *os.Root // opened on root: every open goes through it (rootfs.go)
	// at is the root for openat2 lookups, the fast path of stat, lstat and openRegular on
	// Linux (rootfs_beneath_linux.go); nil where openat2 cannot be used, and then fs does all.
	at *beneathDir
}

// outsideError says a path resolves outside the root.
type outsideError struct{ path, root string }

func (e *outsideError) Error() string {
	return fmt.Sprintf("path %s is outside the allowed root %s; use a path inside the root (relative paths are resolved against it)", e.path, e.root)
}

// resolve maps a model-supplied path (absolute, or relative to the root) to the real path the
// tools may use. The longest existing prefix has its symlinks resolved; the part that does not
// exist yet (a file Write will create) is appended unchanged. A result outside the root is an
// *outsideError.
func (c confiner) resolve(p string) (string, error) {
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
	if !c.contains(full) {
		return "", &outsideError{path: p, root: c.root}
	}
	return full, nil
}

// contains reports whether the clean absolute path lies in the root.
func (c confiner) contains(p string) bool {
	if c.root == "/" {
		return true
	}
	return p == c.root || strings.HasPrefix(p, c.root+string(filepath.Separator))
}
