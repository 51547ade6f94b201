package rootfs

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// NewFileMode is the mode of a file Write creates; it matches what an editor creates under the
// usual umask 022, made explicit so the result does not depend on the server's umask.
const NewFileMode fs.FileMode = 0o644

// WriteDir opens the directory that will hold path (creating it when mkdir) as an *os.Root of
// its own, then checks what that descriptor really is: the protected check runs on the
// directory the kernel opened, so a symlink swapped in after Resolve cannot steer a write
// into .awf/ or .git/hooks/. protected lists further absolute paths refused (ProtectedWhy). The
// caller closes the returned root.
func (c *Root) WriteDir(path string, mkdir bool, protected []string) (*os.Root, string, error) {
	rel := c.Rel(path)
	dirRel, base := filepath.Dir(rel), filepath.Base(rel)
	if mkdir {
		if err := c.fs.MkdirAll(dirRel, 0o755); err != nil {
			return nil, "", fmt.Errorf("cannot create the parent directory %s: %v", filepath.Dir(path), c.Escaped(err, path))
		}
	}
	d, err := c.fs.OpenRoot(dirRel)
	if err != nil {
		return nil, "", fmt.Errorf("cannot open the directory of %s: %v", path, c.Escaped(err, path))
	}
	realDir, err := rootPath(d)
	if err != nil {
		d.Close()
		return nil, "", fmt.Errorf("cannot check the directory of %s: %v", path, err)
	}
	if !c.Contains(realDir) {
		d.Close()
		return nil, "", &OutsideError{path: path, root: c.root}
	}
	if why := ProtectedWhy(filepath.Join(realDir, base), protected); why != "" {
		d.Close()
		return nil, "", &ProtectedError{path: path, why: why}
	}
	return d, base, nil
}

// rootPath is the path the kernel gives the directory r is open on.
func rootPath(r *os.Root) (string, error) {
	f, err := r.Open(".")
	if err != nil {
		return "", err
	}
	defer f.Close()
	return os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
}

// AtomicWrite replaces base in dir with data: a private temporary file in the same directory is
// written, flushed to disk, given the old file's permission bits (and owner, when allowed) or
// 0644, then renamed over base, so a reader sees the old or the new content, never a mix
// (docs/design.md#processes-and-files). setuid and setgid are cleared (docs/decisions/0012-kernel-sandbox.md: a tool must not be able to leave a
// privileged binary behind); the sticky bit is kept. The temporary file is removed on every
// failure path. existing is the current file's info, or nil; path names the file in errors.
func AtomicWrite(dir *os.Root, base, path string, data []byte, existing fs.FileInfo) (err error) {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmpName := "." + base + ".awf-" + hex.EncodeToString(rnd[:]) + ".tmp"
	tmp, err := dir.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("cannot create a temporary file beside %s: %v", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			_ = dir.Remove(tmpName)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("cannot write beside %s: %v", path, err)
	}
	mode := NewFileMode
	if existing != nil {
		mode = existing.Mode() & (fs.ModePerm | fs.ModeSticky)
		if st, ok := existing.Sys().(*syscall.Stat_t); ok {
			_ = tmp.Chown(int(st.Uid), int(st.Gid)) // only root may give a file away; best effort
		}
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("cannot set mode %v beside %s: %v", mode, path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("cannot flush the new %s to disk: %v", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("cannot close the new %s: %v", path, err)
	}
	if err = dir.Rename(tmpName, base); err != nil {
		return fmt.Errorf("cannot replace %s: %v", path, err)
	}
	if d, err := dir.Open("."); err == nil {
		_ = d.Sync() // failure only weakens crash durability
		_ = d.Close()
	}
	return nil
}
