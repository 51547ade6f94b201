//go:build linux

package mcpserver

import (
	"os"
	"strconv"
	"syscall"
)

// pollableStdin returns a file that reads what os.Stdin reads, but through the Go runtime's
// poller, when stdin is a pipe or a socket (how agent CLIs spawn their MCP servers: Node's
// child_process gives a socket, most others a pipe); false otherwise, and for a terminal or a
// file. os.Stdin itself is read by blocking a thread in read(2) between requests: the runtime's
// monitor then takes that thread's processor back every 20 µs tick and hands it on, and every
// request wakes and reschedules threads, which cost the server more CPU per call at one call
// in flight than the call itself (the docs/decisions/0015-performance-at-the-floor.md profile). A parked goroutine costs nothing.
//
// A pipe is opened again through /proc/self/fd/0, so the O_NONBLOCK flag is set on a file
// description of its own and nothing else that holds the pipe sees it change. A socket cannot
// be opened again: it is duplicated and its one description made non-blocking; it is the
// server's own end of the pair, which nothing else reads (the tools' processes get /dev/null as
// their stdin). A socket that is also stdout or stderr (one end for both ways) is left alone:
// the writes to it, which expect a blocking descriptor, would fail when its buffer is full.
func pollableStdin() (*os.File, bool) {
	var st syscall.Stat_t
	if err := syscall.Fstat(syscall.Stdin, &st); err != nil {
		return nil, false
	}
	var fd int
	var err error
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFIFO:
		fd, err = syscall.Open("/proc/self/fd/"+strconv.Itoa(syscall.Stdin), syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	case syscall.S_IFSOCK:
		if sharesSocket(st, syscall.Stdout) || sharesSocket(st, syscall.Stderr) {
			return nil, false // made non-blocking, the same socket would fail blocking writes
		}
		if fd, err = syscall.Dup(syscall.Stdin); err == nil {
			syscall.CloseOnExec(fd)
			if err = syscall.SetNonblock(fd, true); err != nil {
				_ = syscall.Close(fd)
			}
		}
	default:
		return nil, false
	}
	if err != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), "/dev/stdin"), true // non-blocking: NewFile puts it on the poller
}

// sharesSocket reports whether fd is the same socket as the one st describes.
func sharesSocket(st syscall.Stat_t, fd int) bool {
	var other syscall.Stat_t
	return syscall.Fstat(fd, &other) == nil && other.Dev == st.Dev && other.Ino == st.Ino
}
