// Package servetune is awf-serve's one switch over the Go runtime. `mcp-serve` is spawned for
// every agent step and mostly waits, between short calls, for a model to think; two settings of
// the runtime's defaults make it cheaper there, and both are made here, once, at start-up, or not
// at all:
//
//   - the Pacer (pacer.go) runs the server on one P between calls and widens to every P while
//     calls overlap, run long or fan out;
//   - the collector (gc.go) runs less often, under a soft memory limit.
//
// Apply with the switch on (the default, `--tune-runtime`) makes both; off leaves GOMAXPROCS and
// the collector as the runtime set them, for a measurement or a machine where they hurt. The
// user's GOMAXPROCS, GOGC and GOMEMLIMIT always win. Nothing else in awf changes GOMAXPROCS or
// the collector's settings; the tools take their parallelism as an input (Tuning.Workers).
package servetune

import "runtime"

// Tuning is what the serving code needs to know of the switch: how many workers a search may
// use, and the hooks the Pacer puts around calls (nil when the switch is off or there is nothing
// to pace).
type Tuning struct {
	// Workers is GOMAXPROCS as the process started, before any narrowing: a search that begins
	// on one P still walks with every worker, since the Pacer widens as it starts.
	Workers int
	// BeginCall marks a call's start and returns the function that marks its end.
	BeginCall func() (end func())
	// BeginFanOut is BeginCall for a call that fans out over every P.
	BeginFanOut func() (end func())
}

// Apply reads the process's P count and, when on, tunes the collector and starts pacing. Call
// it once, first thing in the serving process.
func Apply(on bool) Tuning {
	t := Tuning{Workers: runtime.GOMAXPROCS(0)}
	if !on {
		return t
	}
	tuneServeGC()
	if p := New(DefaultLong); p != nil {
		t.BeginCall, t.BeginFanOut = p.Begin, p.BeginWide
	}
	return t
}
