// Package pluginsock names the one directory under which awf's plugin hosts let go-plugin make
// its per-plugin socket directories (go-plugin's UnixSocketConfig.TempDir), so that the Bash
// sandbox can hide all of them, those of other awf processes of the same user included, with
// one mount: a plugin's gRPC socket takes any operation the plugin has, whatever the step
// exposes.
package pluginsock

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Dir is the directory: awf-plugins in $XDG_RUNTIME_DIR (private to the user by definition),
// else awf-plugins-<uid> in the temp directory, else in /tmp: the first whose sockets' paths
// fit in a sockaddr_un (108 bytes; a long $TMPDIR makes bind fail with EINVAL).
func Dir() string {
	suffix := "awf-plugins-" + strconv.Itoa(os.Getuid())
	dirs := []string{filepath.Join(os.TempDir(), suffix), filepath.Join("/tmp", suffix)}
	if rt := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		dirs = append([]string{filepath.Join(rt, "awf-plugins")}, dirs...)
	}
	for _, d := range dirs[:len(dirs)-1] {
		if len(d)+socketTail < maxSocketPath {
			return d
		}
	}
	return dirs[len(dirs)-1]
}

// socketTail is what go-plugin adds to the directory: /plugin-dir<up to 10 digits>/plugin<up
// to 10 digits> (os.MkdirTemp and os.CreateTemp); maxSocketPath is sun_path's size, its NUL
// included.
const (
	socketTail    = len("/plugin-dir") + 10 + len("/plugin") + 10
	maxSocketPath = 108
)

// Ensure creates Dir, mode 0700, and checks that it is a directory of this user that no one
// else may enter (in a shared /tmp another user could have made it first). It returns Dir, or
// "" and why not; a host then leaves go-plugin its default, the temp directory.
func Ensure() (string, error) {
	dir := Dir()
	if len(dir)+socketTail >= maxSocketPath {
		return "", errors.New(dir + " is too long a directory for unix sockets")
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o077 != 0 {
		return "", errors.New(dir + " is not a private directory of this user")
	}
	return dir, nil
}
