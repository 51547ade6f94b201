//go:build unix

package pathprobe

import "syscall"

// errNotDir is what stat says of a path that goes through a file as if it were a directory.
var errNotDir error = syscall.ENOTDIR
