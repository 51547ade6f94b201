package runrecord

import "testing"

// A record without a pid is never taken for a live run, even by a liveness probe that says yes
// to pid 0 (kill(0, 0) signals the caller's own process group, and succeeds).
func TestEffectiveWithoutPidIsCrashed(t *testing.T) {
	always := func(int) bool { return true }
	for _, pid := range []int{0, -1} {
		r := Record{Status: Running, PID: pid}
		if got := r.Effective(always); got != Crashed {
			t.Errorf("pid %d: %s, want %s", pid, got, Crashed)
		}
	}
	if got := (Record{Status: Running, PID: 1}).Effective(always); got != Running {
		t.Errorf("pid 1 alive: %s, want %s", got, Running)
	}
}
