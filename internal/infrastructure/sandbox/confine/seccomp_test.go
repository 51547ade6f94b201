//go:build linux

package confine

import (
	"encoding/binary"
	"syscall"
	"testing"
)

// run evaluates the filter on one call as the kernel would (classic BPF over struct
// seccomp_data, little-endian), with only the instructions the filter uses.
func run(t *testing.T, prog []sockFilter, arch, nr, arg0 uint32) uint32 {
	t.Helper()
	data := make([]byte, 64)
	binary.LittleEndian.PutUint32(data[0:], nr)
	binary.LittleEndian.PutUint32(data[4:], arch)
	binary.LittleEndian.PutUint32(data[16:], arg0)
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.code {
		case bpfLdWAbs:
			acc = binary.LittleEndian.Uint32(data[in.k:])
		case bpfJeqK, bpfJgeK:
			hit := acc == in.k || in.code == bpfJgeK && acc >= in.k
			if hit {
				pc += int(in.jt)
			} else {
				pc += int(in.jf)
			}
		case bpfRetK:
			return in.k
		default:
			t.Fatalf("unknown instruction %#x at %d", in.code, pc)
		}
	}
	t.Fatal("the filter ran off its end")
	return 0
}

func TestUnixSocketFilter(t *testing.T) {
	if nativeABI.arch == 0 {
		t.Skip("no filter on this architecture")
	}
	prog := unixSocketFilter(nativeABI, compatABI)
	deny, allow := uint32(seccompRetErrno|uint32(syscall.EACCES)), uint32(seccompRetAllow)
	n := nativeABI
	for _, tc := range []struct {
		name           string
		arch, nr, arg0 uint32
		want           uint32
	}{
		{"socket(AF_UNIX)", n.arch, n.socket, afUnix, deny},
		{"socket(AF_INET)", n.arch, n.socket, 2, allow},
		{"socket(AF_NETLINK)", n.arch, n.socket, 16, allow},
		{"io_uring_setup", n.arch, 425, 0, deny},
		{"io_uring_register", n.arch, 427, 0, deny},
		{"another call with 1 as argument", n.arch, n.socket + 1, afUnix, allow},
		{"an unknown architecture", 0x12345678, n.socket, 2, seccompRetErrno | uint32(syscall.ENOSYS)},
	} {
		if got := run(t, prog, tc.arch, tc.nr, tc.arg0); got != tc.want {
			t.Errorf("%s: %#x, want %#x", tc.name, got, tc.want)
		}
	}
	if c := compatABI; c.arch != 0 {
		if got := run(t, prog, c.arch, c.socket, afUnix); got != deny {
			t.Errorf("compat socket(AF_UNIX): %#x", got)
		}
		if got := run(t, prog, c.arch, c.socket, 2); got != allow {
			t.Errorf("compat socket(AF_INET): %#x", got)
		}
		if c.socketcall != 0 && run(t, prog, c.arch, c.socketcall, socketcallSoc) != deny {
			t.Error("compat socketcall(SYS_SOCKET) allowed")
		}
	}
	if n.x32 && run(t, prog, n.arch, 0x40000000|n.socket, afUnix) != deny {
		t.Error("an x32 socket call was allowed")
	}
}
