package servetune

import (
	"os"
	"runtime/debug"
)

// serveGCPercent and serveMemoryLimit tune the collector of `awf mcp-serve`, whose live heap is
// a few MiB: at the default GOGC=100 it collects every few calls and spends about a sixth of its
// CPU there (a profile at 8 calls in flight). GOGC=300 lets garbage build up to four
// times the live heap between collections; the soft limit keeps what the runtime manages under
// 20 MiB, so a big reply (a 1 MiB Read) or a big live heap is collected as before and the peak
// RSS stays where GOGC=100 had it (measured: 35 MiB for a 1 MiB Read either way).
const (
	serveGCPercent   = 300
	serveMemoryLimit = 20 << 20
)

// tuneServeGC applies them unless the user set GOGC or GOMEMLIMIT, which always win.
func tuneServeGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
}
