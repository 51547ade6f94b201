package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// Main is the helper's body: args are the command to exec (the shell and its arguments). It
// returns only on failure, with exit code 125 and a message on stderr naming the step that
// failed; the command has then not run.
func Main(args []string) int {
	// Landlock, no_new_privs and the capability sets are per thread: everything from here to
	// execve runs on this one.
	runtime.LockOSThread()
	pol, err := decodePolicy(os.Getenv(policyEnv))
	if err == nil && len(args) == 0 && !pol.Probe {
		err = fmt.Errorf("no command given")
	}
	if err == nil {
		err = apply(pol)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "awf sandbox: %v; the command did not run\n", err)
		return 125
	}
	if pol.Probe {
		return 0
	}
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, policyEnv+"=") {
			env = append(env, kv)
		}
	}
	return runAsInit(args, env)
}

// apply confines the helper: mounts first (they need the namespace's capabilities), then the
// capabilities are dropped for good, then Landlock.
func apply(p Policy) error {
	if err := unix.Mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("cannot make the mount namespace private: %v", err)
	}
	if err := readOnlyOutside(p.writablePaths()); err != nil {
		return err
	}
	for _, path := range p.Protected {
		if err := bindReadOnly(path); err != nil {
			return err
		}
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("cannot mount a private /proc: %v", err)
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	return restrict(p)
}

// bindReadOnly makes path read-only in this mount namespace: a bind mount of it onto itself,
// remounted read-only with the flags the kernel locks on the original mount kept. A missing
// path is skipped (nothing to protect).
func bindReadOnly(path string) error {
	if _, err := os.Lstat(path); err != nil {
		return nil
	}
	if err := unix.Mount(path, path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("cannot bind %s: %v", path, err)
	}
	var st unix.Statfs_t
	flags := uintptr(0)
	if unix.Statfs(path, &st) == nil {
		flags = uintptr(st.Flags)
	}
	keep := uintptr(unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC|unix.MS_NOATIME|unix.MS_NODIRATIME|unix.MS_RELATIME) & flags
	if err := unix.Mount("none", path, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_REC|keep, ""); err != nil {
		return fmt.Errorf("cannot make %s read-only: %v", path, err)
	}
	return nil
}

// dropCapabilities empties the bounding set and locks SECBIT_NOROOT, so the shell gets no
// capability even as uid 0 in the namespace (it could otherwise unmount the read-only binds).
func dropCapabilities() error {
	for c := 0; c <= 63; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("cannot drop capability %d: %v", c, err)
		}
	}
	const secbits = 1<<0 | 1<<1 | 1<<2 | 1<<3 // NOROOT, NOROOT_LOCKED, NO_SETUID_FIXUP, NO_SETUID_FIXUP_LOCKED
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, secbits, 0, 0, 0); err != nil {
		return fmt.Errorf("cannot set the secure bits: %v", err)
	}
	return nil
}

// devices every policy may write: discarding output and reading zeros must keep working.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// restrict applies Landlock: everything readable and executable, writes only where the policy
// says. It fails when the kernel has no Landlock (ABI < 1), never silently running without.
func restrict(p Policy) error {
	abi := ABI()
	if abi < 1 {
		return fmt.Errorf("the kernel has no Landlock")
	}
	const all = ^uint64(0)
	rules := []landlockRule{{path: "/", access: fsRead}, {path: p.TmpDir, access: all}}
	for _, d := range devices {
		rules = append(rules, landlockRule{path: d, access: fsFileRW, optional: true})
	}
	if p.Policy != PolicyRead {
		rules = append(rules, landlockRule{path: p.Root, access: all})
		for _, w := range p.Writable {
			rules = append(rules, landlockRule{path: w, access: all})
		}
	}
	if err := landlockRestrict(abi, rules); err != nil {
		return fmt.Errorf("cannot apply Landlock: %v", err)
	}
	return nil
}
