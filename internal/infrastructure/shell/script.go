package shell

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// scriptCommand prepares a script_file whose content starts with `#!`: the content goes to a
// private temp file (a 0700 directory, a 0600 file) and the interpreter named on the `#!` line
// runs it, with the line's single optional argument, exactly as the kernel would (so
// `#!/usr/bin/env -S python3 -u` works too). Reading the script instead of executing it keeps
// clear of "text file busy" when another step forks while the file is being written. The
// returned function removes the file.
func scriptCommand(content string) (*exec.Cmd, func(), error) {
	line, _, _ := strings.Cut(strings.TrimPrefix(content, "#!"), "\n")
	line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	interp, arg := line, ""
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		interp, arg = line[:i], strings.TrimSpace(line[i+1:])
	}
	dir, err := os.MkdirTemp("", "awf-script-")
	if err != nil {
		return nil, func() {}, err
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	path := filepath.Join(dir, "script")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		cleanup()
		return nil, func() {}, err
	}
	args := []string{path}
	if arg != "" {
		args = []string{arg, path}
	}
	return exec.Command(interp, args...), cleanup, nil
}

// missingInterpreter reports whether err says the program could not be found, which a shell
// reports as exit code 127.
func missingInterpreter(err error) bool {
	return errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist)
}
