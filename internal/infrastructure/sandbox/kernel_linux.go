package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// KernelCan says whether the kernel lets this user sandbox, independently of awf's helper:
// Landlock, and a process in fresh user, mount, PID and network namespaces mapped to uid 0
// there (what `unshare -U -m -p -n --map-root-user true` does). nil when it can; else the
// system call's error with the kernel settings that decide it.
func KernelCan() error {
	if ABI() < 1 {
		return errors.New(noLandlock)
	}
	cmd := exec.Command("/bin/sh", "-c", "true")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("cannot create user, mount, PID and network namespaces as uid %d: %v%s", os.Getuid(), err, kernelSettings())
	}
	return nil
}

const noLandlock = "the kernel has no Landlock LSM (landlock_create_ruleset is not available: Linux 5.13+ with lsm=landlock needed)"

// kernelSettings are the values of the switches that decide whether unprivileged user
// namespaces work (probeSettings), as " (name=value, ...)", or "" when none can be read: the
// facts behind a refusal, for the user to compare with their distribution's documentation.
func kernelSettings() string {
	var parts []string
	for _, f := range probeSettings {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		name := strings.ReplaceAll(strings.TrimPrefix(f, "/proc/sys/"), "/", ".")
		parts = append(parts, name+"="+strings.TrimSpace(string(b)))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
