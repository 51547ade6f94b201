// Package pathprobe is the ports.PathProbe adapter over the local file system.
package pathprobe

import (
	"errors"
	"io/fs"
	"os"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// Probe stats paths on the local file system.
type Probe struct{}

var _ ports.PathProbe = Probe{}

// Exists follows symlinks: a dangling link does not exist. A path through a regular file
// ("file.txt/x") does not exist either; any other failure is returned as such.
func (Probe) Exists(path string) (bool, error) {
	_, err := os.Stat(path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, errNotDir):
		return false, nil
	}
	return false, err
}
