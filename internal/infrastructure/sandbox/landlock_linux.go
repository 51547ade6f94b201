package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock is driven with golang.org/x/sys/unix directly. The maintained binding
// (github.com/landlock-lsm/go-landlock) restricts every thread of the process through
// libcap/psx, which with cgo wraps pthread_create and installs a signal handler in the whole awf
// binary. The helper needs none of that: it locks itself to one OS thread, restricts that
// thread and execs from it, and a process inherits the Landlock domain, no_new_privs and
// capability sets of the thread that called execve.

// Access rights by the ABI that introduced them.
const (
	fsABI1 = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	fsRead      = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	fsFileRW    = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	scopeSignal = unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
)

// handledFS is every filesystem right the kernel's ABI knows: all are denied unless a rule grants.
func handledFS(abi int) uint64 {
	h := uint64(fsABI1)
	if abi >= 2 {
		h |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		h |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		h |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return h
}

// landlockRule grants access beneath one path.
type landlockRule struct {
	path     string
	access   uint64
	optional bool // a missing path is skipped instead of failing
}

// landlockRestrict restricts the calling thread: the rules' rights, nothing else on the
// filesystem, and (ABI 6+) no signals to or abstract sockets of processes outside the sandbox.
// The caller must hold runtime.LockOSThread and exec from the same thread.
func landlockRestrict(abi int, rules []landlockRule) error {
	handled := handledFS(abi)
	attr := unix.LandlockRulesetAttr{Access_fs: handled}
	size := unsafe.Sizeof(attr)
	if abi < 6 {
		size = unsafe.Offsetof(attr.Scoped) // older kernels reject the bigger struct
	} else {
		attr.Scoped = scopeSignal
	}
	if abi < 4 {
		size = unsafe.Offsetof(attr.Access_net)
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_create_ruleset: %v", errno)
	}
	defer unix.Close(int(fd))
	for _, r := range rules {
		if err := addRule(int(fd), r, handled); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("cannot set no_new_privs: %v", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %v", errno)
	}
	return nil
}

func addRule(rulesetFD int, r landlockRule, handled uint64) error {
	fd, err := unix.Open(r.path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		if r.optional {
			return nil
		}
		return fmt.Errorf("cannot open %s for a Landlock rule: %v", r.path, err)
	}
	defer unix.Close(fd)
	access := r.access & handled
	var st unix.Stat_t
	if unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= fsFileRW | unix.LANDLOCK_ACCESS_FS_EXECUTE // rights that make sense on a file
	}
	attr := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(fd)}
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(rulesetFD), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_add_rule %s: %v", r.path, errno)
	}
	return nil
}

// ABI is the kernel's Landlock ABI version, 0 when it has none (or Landlock is disabled).
func ABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}
