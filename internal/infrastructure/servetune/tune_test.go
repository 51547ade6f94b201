package servetune

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestApplyIsTheOneSwitch: off changes nothing of the runtime and hooks nothing; on tunes the
// collector and, with more than one P, paces calls. Either way Workers is the P count at the
// start.
func TestApplyIsTheOneSwitch(t *testing.T) {
	prevPercent, prevLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	procs := runtime.GOMAXPROCS(0)
	t.Cleanup(func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
		runtime.GOMAXPROCS(procs)
	})
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOMAXPROCS", "")
	for _, on := range []bool{false, true} {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		tu := Apply(on)
		if tu.Workers != procs {
			t.Fatalf("on=%v: Workers %d, want the %d Ps the process has", on, tu.Workers, procs)
		}
		gc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
		tuned := gc == serveGCPercent && limit == serveMemoryLimit
		untouched := gc == 100 && limit == math.MaxInt64
		paced := tu.BeginCall != nil && tu.BeginFanOut != nil
		switch {
		case !on && (!untouched || tu.BeginCall != nil || tu.BeginFanOut != nil):
			t.Fatalf("off: GOGC %d, limit %d, hooks set %v: the runtime must be left alone", gc, limit, tu.BeginCall != nil)
		case on && !tuned:
			t.Fatalf("on: GOGC %d, limit %d", gc, limit)
		case on && paced != (procs > 1):
			t.Fatalf("on with %d Ps: paced %v", procs, paced)
		}
		if paced {
			tu.BeginCall()() // the first call ends: the Pacer narrows
			if got := runtime.GOMAXPROCS(0); got != 1 {
				t.Fatalf("after a call on: %d Ps, want 1", got)
			}
			runtime.GOMAXPROCS(procs)
		}
	}
}
