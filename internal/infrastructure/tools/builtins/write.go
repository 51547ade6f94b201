package builtins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/awf-dev/awf/internal/domain/tool"

	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

type writeArgs struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

func (p *Provider) callWrite(ctx context.Context, raw json.RawMessage) tool.Result {
	var a writeArgs
	if err := decodeArgs(raw, &a, "file_path", "content"); err != nil {
		return tool.Error("Write: " + err.Error())
	}
	path, err := p.root.Resolve(a.FilePath)
	if err != nil {
		return tool.Error("Write: " + err.Error())
	}
	if err := ctx.Err(); err != nil {
		return tool.Error("Write: cancelled before writing: " + err.Error())
	}
	dir, base, err := p.root.WriteDir(path, true, p.writeProtected())
	if err != nil {
		return tool.Error("Write: " + err.Error())
	}
	defer dir.Close()
	existing, err := dir.Lstat(base)
	switch {
	case err == nil && existing.Mode()&fs.ModeSymlink != 0:
		// resolve left a final symlink in place only when it dangles; the link is replaced.
		existing = nil
	case err == nil && !existing.Mode().IsRegular():
		return tool.Error("Write: " + rootfs.RequireRegular(path, existing).Error() + "; Write replaces regular files only")
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return tool.Error(fmt.Sprintf("Write: cannot access %s: %v", path, err))
	case err != nil:
		existing = nil
	}
	if err := rootfs.AtomicWrite(dir, base, path, []byte(a.Content), existing); err != nil {
		return tool.Error("Write: " + err.Error())
	}
	verb := "Created"
	if existing != nil {
		verb = "Updated"
	}
	return tool.Text(fmt.Sprintf("%s %s (%d bytes).", verb, path, len(a.Content)))
}
