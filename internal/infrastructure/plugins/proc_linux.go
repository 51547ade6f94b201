package plugins

import (
	"errors"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/awf-dev/awf/internal/infrastructure/process"
)

// setProcAttr puts the plugin in its own process group (Ctrl+C on the terminal reaches awf,
// which then stops plugins in order) and has the kernel SIGKILL it if awf dies without
// stopping it. The parent-death signal fires when the forking thread exits; Go only retires
// threads locked with LockOSThread, which plugin starts never are.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup SIGKILLs every process of the group led by pid, and all of a contained start's
// processes when pid is its reaper (a bridged server, process.Contain).
func killGroup(pid int) {
	if pid > 0 {
		process.KillTree(pid)
	}
}

// waitExit blocks until pid has exited without reaping it, so its group id stays reserved.
func waitExit(pid int) {
	if pid <= 0 {
		return
	}
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return
		}
	}
}
