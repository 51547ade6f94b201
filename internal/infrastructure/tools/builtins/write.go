package builtins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// newFileMode is the mode of a file Write creates; it matches what an editor creates under the
// usual umask 022, made explicit so the result does not depend on the server's umask.
const newFileMode fs.FileMode = 0o644

type writeArgs struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

func (p *Provider) callWrite(ctx context.Context, raw json.RawMessage) tool.Result {
	var a writeArgs
	if err := decodeArgs(raw, &a, "file_path", "content"); err != nil {
		return tool.Error("Write: " + err.Error())
	}
	path, err := p.root.resolve(a.FilePath)
	if err != nil {
		return tool.Error("Write: " + err.Error())
	}
	if err := ctx.Err(); err != nil {
		return tool.Error("Write: cancelled before writing: " + err.Error())
	}
	existing, err := os.Lstat(path)
	switch {
	case err == nil && existing.Mode()&fs.ModeSymlink != 0:
		// resolve left a final symlink in place only when it dangles; the link is replaced.
		existing = nil
	case err == nil && !existing.Mode().IsRegular():
		return tool.Error("Write: " + requireRegular(path, existing).Error() + "; Write replaces regular files only")
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return tool.Error(fmt.Sprintf("Write: cannot access %s: %v", path, err))
	case err != nil:
		existing = nil
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return tool.Error(fmt.Sprintf("Write: cannot create the parent directory %s: %v", dir, err))
	}
	if err := atomicWrite(path, []byte(a.Content), existing); err != nil {
		return tool.Error("Write: " + err.Error())
	}
	verb := "Created"
	if existing != nil {
		verb = "Updated"
	}
	return tool.Text(fmt.Sprintf("%s %s (%d bytes).", verb, path, len(a.Content)))
}

// atomicWrite replaces path with data: a private temporary file in the same directory is
// written, flushed to disk, given the old file's mode (and owner, when allowed) or 0644, then
// renamed over path, so a reader sees the old or the new content, never a mix (DESIGN §8). The
// temporary file is removed on every failure path. existing is the current file's info, or nil.
func atomicWrite(path string, data []byte, existing fs.FileInfo) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".awf-*.tmp")
	if err != nil {
		return fmt.Errorf("cannot create a temporary file in %s: %v", dir, err)
	}
	tmpName := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %v", tmpName, err)
	}
	mode := newFileMode
	if existing != nil {
		// Keep permission and special bits (DESIGN §10: 0640/0755 files once became 0644).
		mode = existing.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
		if st, ok := existing.Sys().(*syscall.Stat_t); ok {
			_ = tmp.Chown(int(st.Uid), int(st.Gid)) // only root may give a file away; best effort
		}
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("cannot set mode %v on %s: %v", mode, tmpName, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("cannot flush %s to disk: %v", tmpName, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("cannot close %s: %v", tmpName, err)
	}
	if err = os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("cannot replace %s: %v", path, err)
	}
	syncDir(dir)
	return nil
}

// syncDir flushes a directory entry change to disk; failure only weakens crash durability, so
// it is not reported.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
