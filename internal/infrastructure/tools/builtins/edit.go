package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/awf-dev/awf/internal/domain/tool"

	"github.com/awf-dev/awf/internal/infrastructure/tools/rootfs"
)

type editArgs struct {
	FilePath   string `json:"file_path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

func (p *Provider) callEdit(ctx context.Context, raw json.RawMessage) tool.Result {
	var a editArgs
	if err := decodeArgs(raw, &a, "file_path", "old_string", "new_string"); err != nil {
		return tool.Error("Edit: " + err.Error())
	}
	path, err := p.root.Resolve(a.FilePath)
	if err != nil {
		return tool.Error("Edit: " + err.Error())
	}
	dir, base, err := p.root.WriteDir(path, false, p.writeProtected())
	if err != nil {
		return tool.Error("Edit: " + err.Error())
	}
	defer dir.Close()
	f, err := p.root.OpenRegular(path)
	if err != nil {
		return tool.Error("Edit: " + err.Error())
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return tool.Error(fmt.Sprintf("Edit: cannot stat %s: %v", path, err))
	}
	if fi.Size() > editMaxFileBytes {
		f.Close()
		return tool.Error(fmt.Sprintf("Edit: %s is %d bytes, over the %d-byte limit of Edit; use Bash (sed, a script) for files this large", path, fi.Size(), editMaxFileBytes))
	}
	data, err := io.ReadAll(io.LimitReader(f, editMaxFileBytes+1))
	f.Close()
	if err != nil {
		return tool.Error(fmt.Sprintf("Edit: cannot read %s: %v", path, err))
	}
	updated, n, err := applyEdit(string(data), a.OldString, a.NewString, a.ReplaceAll)
	if err != nil {
		return tool.Error(fmt.Sprintf("Edit: %s: %v", path, err))
	}
	if err := ctx.Err(); err != nil {
		return tool.Error("Edit: cancelled before writing: " + err.Error())
	}
	if err := rootfs.AtomicWrite(dir, base, path, []byte(updated), fi); err != nil {
		return tool.Error("Edit: " + err.Error())
	}
	return tool.Text(fmt.Sprintf("Replaced %d occurrence%s in %s.", n, plural(n), path))
}

// applyEdit replaces old with new in content and returns the result and the number of
// replacements. It refuses what would silently do the wrong thing (docs/design.md#pitfalls): an empty old
// (which would insert at the start of the file), old equal to new (a no-op the model thinks
// worked), old absent, and several occurrences without replaceAll (which once changed the first
// of two matches).
func applyEdit(content, old, new string, replaceAll bool) (string, int, error) {
	switch {
	case old == "":
		return "", 0, fmt.Errorf("old_string is empty; give the exact text to replace (to create or overwrite a whole file use Write)")
	case old == new:
		return "", 0, fmt.Errorf("old_string and new_string are identical, so nothing would change")
	}
	n := strings.Count(content, old)
	switch {
	case n == 0:
		return "", 0, fmt.Errorf("old_string was not found in the file; it must match exactly, including whitespace and indentation (Read the file again to copy the text)")
	case n > 1 && !replaceAll:
		return "", 0, fmt.Errorf("old_string occurs %d times; include more surrounding lines to make it unique, or set replace_all to true to replace every occurrence", n)
	}
	if replaceAll {
		return strings.ReplaceAll(content, old, new), n, nil
	}
	return strings.Replace(content, old, new, 1), 1, nil
}
