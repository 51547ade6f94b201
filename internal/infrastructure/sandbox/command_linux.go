package sandbox

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"

	"github.com/awf-dev/awf/internal/infrastructure/pluginsock"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox/confine"
)

// namespaces are the helper's: a user namespace, mount and PID namespaces, and a network
// namespace with no interface up when the network is off. The helper maps its own ids in the
// user namespace (confine.ArgMapIDs), each onto itself: the parent may be non-dumpable, and then
// cannot write them.
//
// The helper keeps the caller's uid, so the shell sees the user it runs as (files keep their
// owners, git's ownership check holds, tools do not act as root), and gets the two
// capabilities its mounts need as ambient ones: a process that creates a user namespace holds
// every capability in it, but a uid other than 0 loses them at exec unless they are ambient.
// CAP_SYS_ADMIN makes the mounts (and writes the id maps), CAP_SETPCAP empties the bounding set
// and locks the secure bits; the helper drops all of them before it runs the command
// (confine.dropCapabilities).
func namespaces(network bool) *syscall.SysProcAttr {
	flags := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID)
	caps := []uintptr{capSetpcap, capSysAdmin}
	if !network {
		flags |= syscall.CLONE_NEWNET
		// CAP_NET_ADMIN brings the namespace's loopback up for an egress list's forwarders
		// (confine.startEgress); it is dropped with the others before the command runs.
		caps = append(caps, capNetAdmin)
	}
	return &syscall.SysProcAttr{Cloneflags: flags, AmbientCaps: caps}
}

// Capability numbers (include/uapi/linux/capability.h).
const (
	capSetpcap  = 8
	capNetAdmin = 12
	capSysAdmin = 21
)

var (
	probeMu    sync.Mutex
	probeCache = map[string]Status{}
)

// Probe runs the helper in self once with every part of a policy (namespaces, read-only binds,
// /proc, Landlock, no network) and reports whether it worked; the answer is kept per binary.
// It pins self (opens it) first, so that every helper started later in this process runs the
// binary that was at that path now, whatever the calls do to the path.
func Probe(self string) Status {
	_, _ = pinned(self)
	// The plugin socket directory must exist before any call, so that every call hides it, even
	// one made before the first plugin starts.
	_, _ = pluginsock.Ensure()
	probeMu.Lock()
	defer probeMu.Unlock()
	if st, ok := probeCache[self]; ok {
		return st
	}
	st := probeThroughDisk(self)
	probeCache[self] = st
	return st
}

func probe(self string) Status {
	abi := confine.ABI()
	if abi < 1 {
		return Status{Reason: noLandlock}
	}
	tmp, err := os.MkdirTemp("", "awf-sandbox-probe-")
	if err != nil {
		return Status{ABI: abi, Reason: fmt.Sprintf("cannot create a temp directory: %v", err)}
	}
	defer os.RemoveAll(tmp)
	sp, err := StartSpare(self, tmp, false)
	if err != nil {
		return Status{ABI: abi, Reason: err.Error() + kernelSettings()}
	}
	var out []byte
	read := make(chan struct{})
	go func() {
		defer close(read)
		out, _ = io.ReadAll(io.LimitReader(sp.Out, 64<<10))
	}()
	err = sp.Send(Policy{Policy: PolicyRead, Root: tmp, TmpDir: tmp, Protected: []string{tmp}, Probe: true}, nil, nil)
	if err == nil {
		err = sp.Cmd.Wait()
	} else {
		sp.Discard()
	}
	<-read
	sp.Out.Close()
	if err != nil {
		return Status{ABI: abi, Reason: probeFailure(self, err, out)}
	}
	return Status{Enforced: true, ABI: abi}
}

// probeFailure is the reason of a failed trial run: what the helper printed (the step that
// failed and its error), else how it ended.
func probeFailure(self string, err error, out []byte) string {
	if msg := strings.TrimSpace(string(out)); msg != "" {
		return msg
	}
	return fmt.Sprintf("the sandbox helper %s ended without a message: %v", self, err)
}

// ABI is the kernel's Landlock ABI version, 0 when it has none (or Landlock is disabled).
func ABI() int { return confine.ABI() }
