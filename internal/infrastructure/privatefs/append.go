package privatefs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrLink is what OpenAppend and RealDir return for a symbolic link where awf writes a run's
// files: a link planted in .awf/runs/<id>/ would otherwise make awf append its log or its
// activity to any file the user can write (docs/design.md#processes-and-files).
var ErrLink = errors.New("is a symbolic link")

// OpenAppend opens path for appending, creating it 0600 (and its directory 0700), without
// following a symbolic link: neither path itself nor its directory may be one. The error then
// says which and what to do.
func OpenAppend(path string) (*os.File, error) {
	dir := filepath.Dir(path)
	if err := RealDir(dir); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY|syscall.O_NOFOLLOW, 0o600)
	if err != nil && errors.Is(err, syscall.ELOOP) {
		return nil, linkError(path)
	}
	return f, err
}

// RealDir makes dir (0700) when it is missing and refuses it when it is a symbolic link or not
// a directory, so that the files awf then opens inside it stay inside it.
func RealDir(dir string) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		st, err = os.Lstat(dir)
	}
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&os.ModeSymlink != 0:
		return linkError(dir)
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory: move it away so awf can keep its run files there", dir)
	}
	return nil
}

// linkError names the link and the fix.
func linkError(path string) error {
	return fmt.Errorf("%s %w: awf does not write through links in a run directory; remove the link (rm %q) and try again", path, ErrLink, path)
}
