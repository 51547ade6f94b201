//go:build !linux

package main

import "golang.org/x/sys/unix"

// ioctlReadTermios is the BSD request that reads a terminal's settings (see tty_linux.go).
const ioctlReadTermios = unix.TIOCGETA
