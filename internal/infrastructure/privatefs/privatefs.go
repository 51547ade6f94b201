// Package privatefs keeps a run's private files on disk (docs/design.md#processes-and-files): directories only the user
// can enter (0700), files only the user can read (0600), written atomically, removed at the end.
package privatefs

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// Files is the ports.PrivateFiles adapter over the local file system.
type Files struct{}

var _ ports.PrivateFiles = Files{}

// MakeDir creates a new 0700 directory inside parent (the system temp dir when empty).
func (Files) MakeDir(parent, prefix string) (string, error) {
	// os.MkdirTemp already uses 0700; the umask cannot widen it.
	return os.MkdirTemp(parent, prefix)
}

// WriteFile writes data to path atomically with mode 0600.
func (Files) WriteFile(path string, data []byte) error { return WriteFile(path, data) }

// RemoveAll removes path and everything under it.
func (Files) RemoveAll(path string) error { return os.RemoveAll(path) }

// WriteFile writes data to a temp file beside path (mode 0600) and renames it over path, so a
// reader sees the old file or the whole new one, never half of it.
func WriteFile(path string, data []byte) (err error) {
	// os.CreateTemp already uses 0600, and the umask cannot widen it.
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename %s: %w", path, err)
	}
	return nil
}
