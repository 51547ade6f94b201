package confine

// x86_64, and i386 programs on it (AUDIT_ARCH_X86_64, AUDIT_ARCH_I386; arch/x86/entry/syscalls).
var (
	nativeABI = abiNumbers{arch: 0xC000003E, socket: 41, x32: true}
	compatABI = abiNumbers{arch: 0x40000003, socket: 359, socketcall: 102}
)
