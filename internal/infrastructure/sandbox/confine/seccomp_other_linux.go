//go:build !(amd64 || arm64 || riscv64 || loong64)

package confine

// Elsewhere the filter is not written (big-endian architectures would also need another
// argument offset): a call without network fails rather than run with unix sockets open.
var nativeABI, compatABI abiNumbers
