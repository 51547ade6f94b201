// Package filelock takes an exclusive advisory lock (flock) on an open file and gives up when a
// context ends. Several awf processes share files (the activity log one line at a time, an
// agent CLI's session directory for a whole call); flock's blocking form cannot be interrupted,
// so Lock polls the non-blocking form with a growing wait, and each user picks the wait that
// suits how long its lock is held.
package filelock

import "time"

// Backoff is how long Lock waits between tries: First after the first refusal, then twice the
// previous wait, never more than Max. A lock held briefly wants a short First so that a waiter
// gets it soon after it is free; one held for minutes wants a long Max so that waiting costs
// little.
type Backoff struct {
	First, Max time.Duration
}

// next is the wait after wait.
func (b Backoff) next(wait time.Duration) time.Duration {
	return min(wait*2, b.Max)
}
