package servetune

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneServeGC(t *testing.T) {
	prevPercent, prevLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(prevPercent); debug.SetMemoryLimit(prevLimit) })

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	tuneServeGC()
	if p, l := debug.SetGCPercent(77), debug.SetMemoryLimit(1<<30); p != serveGCPercent || l != serveMemoryLimit {
		t.Fatalf("without user settings: GOGC %d, limit %d", p, l)
	}
	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	tuneServeGC()
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64); p != 77 || l != 1<<30 {
		t.Fatalf("the user's GOGC/GOMEMLIMIT were overridden: %d %d", p, l)
	}
}
