package sandbox

import (
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
)

const prSetDumpable = 4

var (
	closedProc atomic.Bool // CloseProcToChildren ran
	dumpMu     sync.Mutex  // held while StartMapped makes the process dumpable again
)

// CloseProcToChildren marks the calling process non-dumpable: its /proc/<pid>/environ, mem,
// maps and fd become readable only with CAP_SYS_PTRACE, so a child running as the same user
// without it (unsandboxed Bash, a plugin, a bridged MCP server) cannot read the keys in its
// environment or memory. mcp-serve calls it first thing. Root's children hold CAP_SYS_PTRACE
// and so still can: as root, only the sandbox's private /proc closes it. The sandbox's spares
// still start (they map their own ids, confine.ArgMapIDs); other children given a user
// namespace with UidMappings must be started with StartMapped.
func CloseProcToChildren() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0); errno != 0 {
		return errno
	}
	closedProc.Store(true)
	return nil
}

// StartMapped is cmd.Start for a command started in a new user namespace whose id maps the
// parent writes (SysProcAttr.UidMappings, as plugins without network are): the kernel lets a
// non-root parent write them only while it is dumpable, since a child forked from a
// non-dumpable process belongs to root until it execs. So the process is dumpable again for
// the time of Start, under a lock, when CloseProcToChildren made it not; otherwise it is
// cmd.Start.
func StartMapped(cmd *exec.Cmd) error {
	a := cmd.SysProcAttr
	if !closedProc.Load() || os.Getuid() == 0 || a == nil || len(a.UidMappings)+len(a.GidMappings) == 0 {
		return cmd.Start()
	}
	dumpMu.Lock()
	defer dumpMu.Unlock()
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 1, 0)
	defer syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0)
	return cmd.Start()
}
