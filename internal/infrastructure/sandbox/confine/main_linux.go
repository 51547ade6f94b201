package confine

import (
	"errors"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// ExitFailed is the helper's exit code when it could not apply the policy: the command has
// then not run.
const ExitFailed = 125

// Main is the helper's body: args are the policy and the command (Policy.Args). It returns the
// command's exit status, or ExitFailed with a message on stderr naming the step that failed.
func Main(args []string) int {
	// Landlock, no_new_privs and the capability sets are per thread: everything from here to
	// the fork of the command runs on this one, and the command inherits them from it.
	runtime.LockOSThread()
	pol, command, env, err := request(args)
	if err == nil && len(command) == 0 && !pol.Probe {
		err = errors.New("no command given")
	}
	if err == nil {
		err = apply(pol)
	}
	if err != nil {
		os.Stderr.WriteString("awf sandbox: " + err.Error() + "; the command did not run\n")
		return ExitFailed
	}
	if pol.Probe {
		return 0
	}
	return runAsInit(command, env)
}

// request reads the call: from the arguments, or for a spare (ArgAwait) from descriptor 3 once
// the spare has mapped its ids. It makes the helper non-dumpable first thing after that.
func request(args []string) (pol Policy, command, env []string, err error) {
	spare := len(args) > 0 && args[0] == ArgAwait
	if spare {
		if args, err = mapOwnIDs(args[1:]); err != nil {
			return pol, nil, nil, err
		}
	}
	// The command must not read the helper's memory or /proc/1/environ: as the same uid with
	// no capabilities it could, were the helper dumpable (an exec that gains capabilities only
	// through the ambient set leaves it so).
	const prSetDumpable = 4
	if err := prctl(prSetDumpable, 0); err != nil {
		return pol, nil, nil, wrap("cannot make the helper non-dumpable", err)
	}
	if !spare {
		pol, command, err = ParseArgs(args)
		return pol, command, os.Environ(), err
	}
	args, env, network, err := awaitRequest(args)
	if err == nil {
		pol, command, err = ParseArgs(args)
	}
	if err == nil && pol.Network != network {
		err = errors.New("the request's network setting differs from the spare's namespaces")
	}
	return pol, command, env, err
}

// apply confines the helper: mounts first (they need the namespace's capabilities), then the
// capabilities are dropped for good, then Landlock, then without network the seccomp filter
// refusing unix sockets (it needs the no_new_privs Landlock sets).
func apply(p Policy) error {
	if err := readOnlyOutside(p.writablePaths()); err != nil {
		return err
	}
	if err := protect(p.Protected, p.writablePaths()); err != nil {
		return err
	}
	if err := hide(p.Hidden, append([]string{p.Root}, p.writablePaths()...)); err != nil {
		return err
	}
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return wrap("cannot mount a private /proc", err)
	}
	if p.Proxy != "" {
		if err := startEgress(p.Proxy); err != nil {
			return err
		}
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	if err := restrict(p); err != nil {
		return err
	}
	if !p.Network {
		return refuseUnixSockets()
	}
	return nil
}

// dropCapabilities empties the bounding and ambient sets, locks SECBIT_NOROOT and then clears
// the thread's own sets, so the shell gets no capability whatever its uid in the namespace: as
// uid 0 an exec would otherwise grant the full set, as another uid the ambient set would pass
// through the exec, and with either the shell could unmount the read-only binds.
func dropCapabilities() error {
	const prCapbsetDrop, prSetSecurebits, prCapAmbient, prCapAmbientClearAll = 24, 28, 47, 4
	// Capability numbers are contiguous: the first EINVAL is the first past the kernel's last.
	for c := 0; c <= 63; c++ {
		err := prctl(prCapbsetDrop, uintptr(c))
		if err == syscall.EINVAL && c > 0 {
			break
		}
		if err != nil {
			return wrap("cannot drop capability "+itoa(c), err)
		}
	}
	const secbits = 1<<0 | 1<<1 | 1<<2 | 1<<3 // NOROOT, NOROOT_LOCKED, NO_SETUID_FIXUP, NO_SETUID_FIXUP_LOCKED
	if err := prctl(prSetSecurebits, secbits); err != nil {
		return wrap("cannot set the secure bits", err)
	}
	if _, _, errno := syscall.RawSyscall6(syscall.SYS_PRCTL, prCapAmbient, prCapAmbientClearAll, 0, 0, 0, 0); errno != 0 {
		return wrap("cannot clear the ambient capabilities", errno)
	}
	return clearCapabilities()
}

// clearCapabilities empties the calling thread's effective, permitted and inheritable sets.
func clearCapabilities() error {
	const linuxCapabilityVersion3 = 0x20080522
	hdr := struct {
		version uint32
		pid     int32
	}{version: linuxCapabilityVersion3}
	var data [2]struct{ effective, permitted, inheritable uint32 }
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); errno != 0 {
		return wrap("cannot clear the capability sets", errno)
	}
	return nil
}

func prctl(option, arg uintptr) error {
	if _, _, errno := syscall.RawSyscall6(syscall.SYS_PRCTL, option, arg, 0, 0, 0, 0); errno != 0 {
		return errno
	}
	return nil
}
