//go:build !linux

package mcpserver

import "os"

// pollableStdin is the Linux shortcut of stdin_unix.go; elsewhere os.Stdin is read as it is.
func pollableStdin() (*os.File, bool) { return nil, false }
