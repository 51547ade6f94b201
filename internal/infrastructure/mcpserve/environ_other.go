//go:build !linux

package mcpserve

// BlankProcEnviron does nothing where there is no /proc/<pid>/environ to blank.
func BlankProcEnviron(...string) error { return nil }
