package sandbox

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/awf-dev/awf/internal/infrastructure/sandbox/confine"
)

// namespaces are the helper's: a user namespace mapping only the caller's ids, mount and PID
// namespaces, and a network namespace with no interface up when the network is off.
func namespaces(network bool) *syscall.SysProcAttr {
	uid, gid := os.Getuid(), os.Getgid()
	flags := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID)
	if !network {
		flags |= syscall.CLONE_NEWNET
	}
	return &syscall.SysProcAttr{
		Cloneflags:  flags,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
	}
}

// TempEnv sets the call's private temp directory as TMPDIR and as the cache directories of
// common toolchains, which would otherwise write under $HOME (not writable in the sandbox).
func TempEnv(env []string, tmp string) []string {
	set := map[string]string{
		"TMPDIR": tmp, "TMP": tmp, "TEMP": tmp,
		"GOCACHE": filepath.Join(tmp, "go-build"), "GOTMPDIR": tmp,
		"XDG_CACHE_HOME":      filepath.Join(tmp, "cache"),
		"npm_config_cache":    filepath.Join(tmp, "npm"),
		"PIP_CACHE_DIR":       filepath.Join(tmp, "pip"),
		"PYTHONPYCACHEPREFIX": filepath.Join(tmp, "pycache"),
	}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := set[name]; !ok {
			out = append(out, kv)
		}
	}
	for _, name := range []string{"TMPDIR", "TMP", "TEMP", "GOCACHE", "GOTMPDIR", "XDG_CACHE_HOME", "npm_config_cache", "PIP_CACHE_DIR", "PYTHONPYCACHEPREFIX"} {
		out = append(out, name+"="+set[name])
	}
	return out
}

// Status says whether the sandbox can be enforced here, and why not.
type Status struct {
	Enforced bool   // every part applied in a trial run
	ABI      int    // the kernel's Landlock ABI, 0 without Landlock
	Reason   string // why it cannot be enforced: the kernel feature missing
}

var (
	probeMu    sync.Mutex
	probeCache = map[string]Status{}
)

// Probe runs the helper in self once with every part of a policy (namespaces, read-only binds,
// /proc, Landlock, no network) and reports whether it worked; the answer is kept per binary.
func Probe(self string) Status {
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
		return Status{Reason: "the kernel has no Landlock LSM (landlock_create_ruleset is not available: Linux 5.13+ with lsm=landlock needed)"}
	}
	tmp, err := os.MkdirTemp("", "awf-sandbox-probe-")
	if err != nil {
		return Status{ABI: abi, Reason: fmt.Sprintf("cannot create a temp directory: %v", err)}
	}
	defer os.RemoveAll(tmp)
	sp, err := StartSpare(self, tmp, false)
	if err != nil {
		return Status{ABI: abi, Reason: err.Error()}
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
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = fmt.Sprintf("%v (unprivileged user namespaces may be disabled: kernel.unprivileged_userns_clone or an AppArmor/SELinux policy)", err)
		}
		return Status{ABI: abi, Reason: msg}
	}
	return Status{Enforced: true, ABI: abi}
}

// ABI is the kernel's Landlock ABI version, 0 when it has none (or Landlock is disabled).
func ABI() int { return confine.ABI() }
