package confine

// aarch64, and 32-bit ARM programs on it (AUDIT_ARCH_AARCH64, AUDIT_ARCH_ARM).
var (
	nativeABI = abiNumbers{arch: 0xC00000B7, socket: 198}
	compatABI = abiNumbers{arch: 0x40000028, socket: 281}
)
