package servetune

import (
	"os"
	"runtime"
	"sync"
	"time"
)

// DefaultLong is how long a call runs on one P before the Pacer gives it every P: longer than
// a Read, an Edit or a bridged call, shorter than a Grep over a large tree.
const DefaultLong = 2 * time.Millisecond

// Pacer widens and narrows GOMAXPROCS around calls. The zero value is not usable; see New.
//
// Why: an agent step's server serves one short call at a time, almost always (the model thinks
// between calls). Each call hands work between goroutines (stdin reader, call worker, a
// plugin's reply reader), and with a second P idle the Go scheduler wakes a thread on the other
// core for each hand-off; on a VM that is an inter-processor interrupt and a VM exit every
// time. Measured on a 2-core VM (BenchmarkBridgedCallP50, five runs each, alternating): with the
// Pacer awf's CPU per bridged call was 261–289 µs against 344–372 µs on two Ps, the p50 it adds
// to a direct call 254–300 µs against 314–356 µs, and a built-in Read's p50 218–255 µs against
// 275–295 µs. Overlapping calls and long ones (a Grep over a big tree walks it in parallel) need
// every P, so the Pacer widens to all of them as soon as two calls overlap or one has run for
// longer than a threshold, at once for a call known to fan out (BeginWide), and narrows back to
// one when none runs. The start-up keeps every P: there the client's handshake and the building
// of the tools overlap (mcpserve.Session), and one P made the cold start slower (1.21–1.34× the
// floor against 1.04–1.18×); the first narrowing comes when the first call ends. Each change of
// GOMAXPROCS stops the world and turns off the runtime's tracking of the cgroup's CPU limit,
// which is why it is behind the switch (Apply).
type Pacer struct {
	long time.Duration
	max  int
	set  func(int) int // runtime.GOMAXPROCS; replaced in tests

	mu      sync.Mutex
	running int
	wide    bool
}

// New returns the Pacer of a process that has its P count now, or nil when that is already one
// or the user set GOMAXPROCS, whose word wins. A nil Pacer's Begin does nothing.
func New(long time.Duration) *Pacer {
	if os.Getenv("GOMAXPROCS") != "" {
		return nil
	}
	return newPacer(long, runtime.GOMAXPROCS)
}

func newPacer(long time.Duration, set func(int) int) *Pacer {
	max := set(0)
	if max <= 1 {
		return nil
	}
	return &Pacer{long: long, max: max, set: set, wide: true}
}

// Begin marks the start of a call and returns the function that marks its end.
func (p *Pacer) Begin() (end func()) { return p.begin(false) }

// BeginWide is Begin for a call known to fan out over every P (a Grep or a Glob walks the tree
// with a worker per P): it widens at once instead of after the threshold. Begun narrow, a Grep
// over GOROOT/src ran its first milliseconds on one P and widened late, when the timer's
// goroutine got the busy P: 211 ms against 181 ms with every P from the start.
func (p *Pacer) BeginWide() (end func()) { return p.begin(true) }

func (p *Pacer) begin(wide bool) (end func()) {
	if p == nil {
		return func() {}
	}
	p.mu.Lock()
	p.running++
	if wide || p.running > 1 {
		p.widen()
	}
	p.mu.Unlock()
	timer := time.AfterFunc(p.long, func() {
		p.mu.Lock()
		if p.running > 0 {
			p.widen()
		}
		p.mu.Unlock()
	})
	var once sync.Once
	return func() {
		once.Do(func() {
			timer.Stop()
			p.mu.Lock()
			p.running--
			if p.running == 0 && p.wide {
				p.set(1)
				p.wide = false
			}
			p.mu.Unlock()
		})
	}
}

// widen gives the process every P; p.mu is held.
func (p *Pacer) widen() {
	if !p.wide {
		p.set(p.max)
		p.wide = true
	}
}
