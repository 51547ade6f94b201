package confine

import (
	"errors"
	"syscall"
	"unsafe"
)

// Landlock is driven with raw system calls. The maintained binding
// (github.com/landlock-lsm/go-landlock) restricts every thread of the process through
// libcap/psx, which with cgo wraps pthread_create and installs a signal handler in the whole awf
// binary; golang.org/x/sys/unix would delay this package's initialisation. The helper needs
// neither: it locks itself to one OS thread, restricts that thread and forks the command from
// it, and a process inherits the Landlock domain, no_new_privs and capability sets of the
// thread that created it.

// The system call numbers are the same on every architecture Go supports on Linux (they were
// added to the unified table in Linux 5.13), as are the uapi constants below.
const (
	sysLandlockCreateRuleset = 444
	sysLandlockAddRule       = 445
	sysLandlockRestrictSelf  = 446

	landlockCreateRulesetVersion = 1 << 0
	landlockRulePathBeneath      = 1
	oPath                        = 0x200000 // O_PATH
	prSetNoNewPrivs              = 38
)

// Filesystem access rights (include/uapi/linux/landlock.h).
const (
	fsExecute    = 1 << 0
	fsWriteFile  = 1 << 1
	fsReadFile   = 1 << 2
	fsReadDir    = 1 << 3
	fsRemoveDir  = 1 << 4
	fsRemoveFile = 1 << 5
	fsMakeChar   = 1 << 6
	fsMakeDir    = 1 << 7
	fsMakeReg    = 1 << 8
	fsMakeSock   = 1 << 9
	fsMakeFifo   = 1 << 10
	fsMakeBlock  = 1 << 11
	fsMakeSym    = 1 << 12
	fsRefer      = 1 << 13 // ABI 2
	fsTruncate   = 1 << 14 // ABI 3
	fsIoctlDev   = 1 << 15 // ABI 5

	scopeAbstractUnixSocket = 1 << 0 // ABI 6
	scopeSignal             = 1 << 1 // ABI 6
)

// Rights by the ABI that introduced them, and the groups the rules grant.
const (
	fsABI1 = fsExecute | fsWriteFile | fsReadFile | fsReadDir | fsRemoveDir | fsRemoveFile | fsMakeChar |
		fsMakeDir | fsMakeReg | fsMakeSock | fsMakeFifo | fsMakeBlock | fsMakeSym
	fsRead   = fsExecute | fsReadFile | fsReadDir | fsIoctlDev
	fsFileRW = fsReadFile | fsWriteFile | fsTruncate | fsIoctlDev
)

// rulesetAttr is struct landlock_ruleset_attr; older kernels take a prefix of it.
type rulesetAttr struct {
	handledFS  uint64
	handledNet uint64 // ABI 4
	scoped     uint64 // ABI 6
}

// pathBeneathAttr is the packed struct landlock_path_beneath_attr: the kernel reads 12 bytes.
type pathBeneathAttr struct {
	allowed  uint64
	parentFD int32
}

// handledFS is every filesystem right the kernel's ABI knows: all are denied unless a rule grants.
func handledFS(abi int) uint64 {
	h := uint64(fsABI1)
	if abi >= 2 {
		h |= fsRefer
	}
	if abi >= 3 {
		h |= fsTruncate
	}
	if abi >= 5 {
		h |= fsIoctlDev
	}
	return h
}

// rulesetSize is how much of rulesetAttr the kernel's ABI accepts: the bigger struct is EINVAL
// on older kernels. It sets the scopes when the ABI has them.
func rulesetSize(abi int, attr *rulesetAttr) uintptr {
	switch {
	case abi >= 6:
		attr.scoped = scopeSignal | scopeAbstractUnixSocket
		return unsafe.Sizeof(*attr)
	case abi >= 4:
		return unsafe.Offsetof(attr.scoped)
	}
	return unsafe.Offsetof(attr.handledNet)
}

// landlockRule grants access beneath one path.
type landlockRule struct {
	path     string
	access   uint64
	optional bool // a missing path is skipped instead of failing
}

// devices every policy may write: discarding output and reading zeros must keep working.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// rules are the Landlock rules of p: everything readable and executable, writes only where the
// policy says.
func rules(p Policy) []landlockRule {
	const all = ^uint64(0)
	out := []landlockRule{{path: "/", access: fsRead}, {path: p.TmpDir, access: all}}
	for _, d := range devices {
		out = append(out, landlockRule{path: d, access: fsFileRW, optional: true})
	}
	if p.Policy != PolicyRead {
		out = append(out, landlockRule{path: p.Root, access: all})
		for _, w := range p.Writable {
			out = append(out, landlockRule{path: w, access: all})
		}
	}
	return out
}

// restrict applies Landlock. It fails when the kernel has no Landlock (ABI < 1), never
// silently running without.
func restrict(p Policy) error {
	abi := ABI()
	if abi < 1 {
		return errors.New("the kernel has no Landlock")
	}
	if err := landlockRestrict(abi, rules(p)); err != nil {
		return wrap("cannot apply Landlock", err)
	}
	return nil
}

// landlockRestrict restricts the calling thread: the rules' rights, nothing else on the
// filesystem, and (ABI 6+) no signals to or abstract sockets of processes outside the sandbox.
// The caller must hold runtime.LockOSThread and fork the command from the same thread.
func landlockRestrict(abi int, rules []landlockRule) error {
	handled := handledFS(abi)
	attr := rulesetAttr{handledFS: handled}
	size := rulesetSize(abi, &attr)
	fd, _, errno := syscall.Syscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return wrap("landlock_create_ruleset", errno)
	}
	defer syscall.Close(int(fd))
	for _, r := range rules {
		if err := addRule(int(fd), r, handled); err != nil {
			return err
		}
	}
	if err := prctl(prSetNoNewPrivs, 1); err != nil {
		return wrap("cannot set no_new_privs", err)
	}
	if _, _, errno := syscall.Syscall(sysLandlockRestrictSelf, fd, 0, 0); errno != 0 {
		return wrap("landlock_restrict_self", errno)
	}
	return nil
}

func addRule(rulesetFD int, r landlockRule, handled uint64) error {
	fd, err := syscall.Open(r.path, oPath|syscall.O_CLOEXEC, 0)
	if err != nil {
		if r.optional {
			return nil
		}
		return wrap("cannot open "+r.path+" for a Landlock rule", err)
	}
	defer syscall.Close(fd)
	attr := pathBeneathAttr{allowed: ruleAccess(fd, r.access, handled), parentFD: int32(fd)}
	_, _, errno := syscall.Syscall6(sysLandlockAddRule, uintptr(rulesetFD), landlockRulePathBeneath, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if errno != 0 {
		return wrap("landlock_add_rule "+r.path, errno)
	}
	return nil
}

// ruleAccess is what a rule on fd may grant: the handled rights asked for, and on a file only
// the rights that make sense on one (the kernel refuses directory rights there).
func ruleAccess(fd int, access, handled uint64) uint64 {
	access &= handled
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) == nil && st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		access &= fsFileRW | fsExecute
	}
	return access
}

// ABI is the kernel's Landlock ABI version, 0 when it has none (or Landlock is disabled).
func ABI() int {
	v, _, errno := syscall.Syscall(sysLandlockCreateRuleset, 0, 0, landlockCreateRulesetVersion)
	if errno != 0 {
		return 0
	}
	return int(v)
}
