package main

import "golang.org/x/sys/unix"

// ioctlReadTermios is the request that reads a terminal's settings: it fails on anything that
// is not a terminal, /dev/null included (which is a character device all the same).
const ioctlReadTermios = unix.TCGETS
