package servetune

import (
	"testing"
	"time"
)

// fakeProcs records what the Pacer sets, as runtime.GOMAXPROCS would take it.
type fakeProcs struct {
	n   int
	log []int
}

func (f *fakeProcs) set(n int) int {
	prev := f.n
	if n > 0 {
		f.n = n
		f.log = append(f.log, n)
	}
	return prev
}

func TestPacerNarrowsAndWidens(t *testing.T) {
	f := &fakeProcs{n: 4}
	p := newPacer(time.Hour, f.set)
	if f.n != 4 {
		t.Fatalf("after New: %d Ps, want all 4 for the start-up", f.n)
	}
	p.Begin()() // the first call ends: from now on one P between calls
	if f.n != 1 {
		t.Fatalf("after the first call: %d Ps, want 1", f.n)
	}
	end := p.Begin()
	if f.n != 1 {
		t.Fatalf("one short call: %d Ps, want 1", f.n)
	}
	end2 := p.Begin()
	if f.n != 4 {
		t.Fatalf("two calls overlapping: %d Ps, want all 4", f.n)
	}
	end()
	if f.n != 4 {
		t.Fatalf("one call still running: %d Ps, want 4 until none runs", f.n)
	}
	end2()
	end2() // a second end does nothing
	if f.n != 1 {
		t.Fatalf("no call running: %d Ps, want 1", f.n)
	}
	if got, want := f.log, []int{1, 4, 1}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("GOMAXPROCS set to %v, want %v (each change once)", got, want)
	}
}

func TestPacerWidensALongCall(t *testing.T) {
	f := &fakeProcs{n: 2}
	p := newPacer(10*time.Millisecond, f.set)
	p.Begin()()
	end := p.Begin()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p.mu.Lock()
		n := f.n
		p.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a long call was not given every P")
		}
		time.Sleep(5 * time.Millisecond)
	}
	end()
	p.mu.Lock()
	defer p.mu.Unlock()
	if f.n != 1 {
		t.Fatalf("after the long call: %d Ps, want 1", f.n)
	}
}

func TestPacerLeavesOneP(t *testing.T) {
	f := &fakeProcs{n: 1}
	if p := newPacer(time.Millisecond, f.set); p != nil {
		t.Fatal("a process on one P got a Pacer")
	}
	var p *Pacer
	p.Begin()() // a nil Pacer does nothing
	t.Setenv("GOMAXPROCS", "2")
	if New(time.Millisecond) != nil {
		t.Fatal("GOMAXPROCS set by the user, and a Pacer changes it")
	}
}

func TestPacerBeginsASearchWide(t *testing.T) {
	f := &fakeProcs{n: 4}
	p := newPacer(time.Hour, f.set)
	p.Begin()()
	end := p.BeginWide()
	if f.n != 4 {
		t.Fatalf("a search begun: %d Ps, want all 4 at once", f.n)
	}
	end()
	if f.n != 1 {
		t.Fatalf("after the search: %d Ps, want 1", f.n)
	}
	var none *Pacer
	none.BeginWide()() // a nil Pacer does nothing
}
