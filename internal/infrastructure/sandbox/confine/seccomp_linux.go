package confine

import (
	"errors"
	"syscall"
	"unsafe"
)

// Without network, a call must not reach a daemon through a unix socket either: ssh-agent,
// gpg-agent, D-Bus, docker, a plugin's gRPC socket. A network namespace separates abstract
// sockets but not pathname ones, which are found through the filesystem; Landlock has no right
// for connecting to them (its ABI 6 scoping covers abstract sockets and signals only), and
// hiding the directories that usually hold them (/tmp, /run, $XDG_RUNTIME_DIR) misses every
// socket elsewhere. So a seccomp filter refuses socket(AF_UNIX) outright, with EACCES, on
// every kernel the sandbox runs on. socketpair(2) stays allowed: a connected pair reaches
// nothing outside. io_uring is refused too, since its socket and connect operations do not go
// through the system calls the filter sees.
//
// The filter is written out here, about twenty classic BPF instructions, rather than built
// with a seccomp library: the helper may import nothing beyond the standard library (see the
// package comment), libseccomp's Go binding needs cgo, and the kernel itself checks the filter
// in the sandbox's tests.

// Classic BPF opcodes and seccomp constants (include/uapi/linux/{filter,bpf_common,seccomp}.h).
const (
	bpfLdWAbs  = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJeqK    = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJgeK    = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	bpfRetK    = 0x06 // BPF_RET | BPF_K
	seccompOff = 0    // offsets in struct seccomp_data
	archOff    = 4
	arg0Off    = 16 // low half of args[0] on the little-endian architectures listed

	seccompRetAllow = 0x7fff0000
	seccompRetErrno = 0x00050000
	prSetSeccomp    = 22
	seccompModeBPF  = 2

	afUnix        = 1
	socketcallSoc = 1 // SYS_SOCKET, socketcall(2)'s first argument for socket(2)
)

// ioUring are io_uring_setup, io_uring_enter and io_uring_register, the same on every
// architecture (they were added to the unified table).
var ioUring = []uint32{425, 426, 427}

// abiNumbers are the system calls the filter looks at for one architecture; 0 means absent.
type abiNumbers struct {
	arch       uint32 // AUDIT_ARCH_*
	socket     uint32
	socketcall uint32
	x32        bool // x86_64: numbers with bit 30 set are x32 calls, refused
}

// sockFilter is struct sock_filter; sockFprog is struct sock_fprog.
type sockFilter struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

type sockFprog struct {
	n      uint16
	filter *sockFilter
}

// refuseUnixSockets installs the filter on the calling thread, which the command inherits.
// no_new_privs must be set (landlockRestrict sets it).
func refuseUnixSockets() error {
	if nativeABI.arch == 0 {
		return errors.New("no seccomp filter for unix sockets on this architecture; the network cannot be turned off")
	}
	prog := unixSocketFilter(nativeABI, compatABI)
	fprog := sockFprog{n: uint16(len(prog)), filter: &prog[0]}
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetSeccomp, seccompModeBPF, uintptr(unsafe.Pointer(&fprog)))
	if errno != 0 {
		return wrap("cannot install the seccomp filter refusing unix sockets", errno)
	}
	return nil
}

// unixSocketFilter is the program: the native architecture's calls, then the compatibility
// architecture's (32-bit programs on a 64-bit kernel), anything else refused with ENOSYS.
func unixSocketFilter(native, compat abiNumbers) []sockFilter {
	var a asm
	a.ins(bpfLdWAbs, archOff, "", "")
	a.ins(bpfJeqK, native.arch, "", "not-native")
	a.section("n", native)
	a.label("not-native")
	if compat.arch != 0 {
		a.ins(bpfJeqK, compat.arch, "", "foreign")
		a.section("c", compat)
	}
	a.label("foreign")
	a.ins(bpfRetK, seccompRetErrno|uint32(syscall.ENOSYS), "", "")
	return a.resolve()
}

// section checks one architecture's call number; the accumulator holds the architecture.
func (a *asm) section(p string, n abiNumbers) {
	a.ins(bpfLdWAbs, seccompOff, "", "")
	if n.x32 {
		a.ins(bpfJgeK, 0x40000000, p+"deny", "")
	}
	a.ins(bpfJeqK, n.socket, p+"family", "")
	if n.socketcall != 0 {
		a.ins(bpfJeqK, n.socketcall, p+"call", "")
	}
	for _, nr := range ioUring {
		a.ins(bpfJeqK, nr, p+"deny", "")
	}
	a.ins(bpfRetK, seccompRetAllow, "", "")
	a.label(p + "family")
	a.ins(bpfLdWAbs, arg0Off, "", "")
	a.ins(bpfJeqK, afUnix, p+"deny", "")
	a.ins(bpfRetK, seccompRetAllow, "", "")
	if n.socketcall != 0 { // socketcall's arguments are behind a pointer: refuse SYS_SOCKET
		a.label(p + "call")
		a.ins(bpfLdWAbs, arg0Off, "", "")
		a.ins(bpfJeqK, socketcallSoc, p+"deny", "")
		a.ins(bpfRetK, seccompRetAllow, "", "")
	}
	a.label(p + "deny")
	a.ins(bpfRetK, seccompRetErrno|uint32(syscall.EACCES), "", "")
}

// asm assembles forward jumps to labels; "" falls through to the next instruction.
type asm struct {
	prog   []sockFilter
	jumps  []jump
	labels map[string]int
}

// jump is an instruction at whose targets are labels.
type jump struct {
	at   int
	t, f string
}

func (a *asm) ins(code uint16, k uint32, jt, jf string) {
	if jt != "" || jf != "" {
		a.jumps = append(a.jumps, jump{len(a.prog), jt, jf})
	}
	a.prog = append(a.prog, sockFilter{code: code, k: k})
}

func (a *asm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.prog)
}

// resolve fills in the jump offsets: relative to the next instruction, forward only.
func (a *asm) resolve() []sockFilter {
	for _, j := range a.jumps {
		if j.t != "" {
			a.prog[j.at].jt = uint8(a.labels[j.t] - j.at - 1)
		}
		if j.f != "" {
			a.prog[j.at].jf = uint8(a.labels[j.f] - j.at - 1)
		}
	}
	return a.prog
}
