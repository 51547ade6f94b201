//go:build riscv64 || loong64

package confine

// riscv64 and loongarch64 use the generic table (socket is 198) and run no 32-bit programs.
var (
	nativeABI = abiNumbers{arch: auditArch, socket: 198}
	compatABI = abiNumbers{}
)
