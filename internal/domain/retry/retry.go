// Package retry is the retry policy of a step (`retry:` in a workflow): how many attempts, which
// failures are worth another, and how long to wait between them. It is pure: the scheduler asks
// it for decisions and does the waiting itself, under the run's context.
package retry

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Backoff is how the wait grows from one retry to the next.
type Backoff string

// Backoff strategies, with the reference awf's names.
const (
	Constant    Backoff = "constant"
	Linear      Backoff = "linear"
	Exponential Backoff = "exponential"
)

// Backoffs lists the valid strategies, in the order hints show them.
var Backoffs = []Backoff{Constant, Linear, Exponential}

// DefaultMultiplier is the exponential growth factor when a policy gives none.
const DefaultMultiplier = 2.0

// MaxAttemptsLimit bounds max_attempts: a larger number is a typo or a loop in disguise, and
// each attempt of an agent step costs money.
const MaxAttemptsLimit = 100

// longestWait caps any computed wait, so that exponential growth without max_delay cannot
// overflow a Duration or park a run for years.
const longestWait = 24 * time.Hour

// Policy is a step's `retry:` block. The zero value means one attempt, no retry.
type Policy struct {
	// MaxAttempts counts the first attempt: 3 means up to two retries. 0 is read as 1.
	MaxAttempts  int
	InitialDelay time.Duration
	// MaxDelay caps each wait; 0 means no cap beyond longestWait.
	MaxDelay time.Duration
	// Backoff defaults to Constant.
	Backoff Backoff
	// Multiplier is the exponential factor; 0 means DefaultMultiplier.
	Multiplier float64
	// Jitter in [0, 1] spreads each wait by up to ±Jitter of itself, so that parallel
	// branches retrying one service do not hit it in step.
	Jitter float64
	// RetryableExitCodes limits retries to these exit codes; empty retries every failure.
	RetryableExitCodes []int
}

// Problem is one invalid field of a policy, named by its YAML key.
type Problem struct {
	Field   string
	Message string
}

// Problems returns every invalid field, all at once, so a user fixes the block in one pass.
func (p Policy) Problems() []Problem {
	var out []Problem
	add := func(field, format string, args ...any) {
		out = append(out, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	if p.MaxAttempts < 0 || p.MaxAttempts > MaxAttemptsLimit {
		add("max_attempts", "max_attempts is %d; it must be between 1 and %d", p.MaxAttempts, MaxAttemptsLimit)
	}
	if p.InitialDelay < 0 {
		add("initial_delay", "initial_delay is negative (%s)", p.InitialDelay)
	}
	if p.MaxDelay < 0 {
		add("max_delay", "max_delay is negative (%s)", p.MaxDelay)
	}
	if p.MaxDelay > 0 && p.InitialDelay > p.MaxDelay {
		add("max_delay", "max_delay %s is shorter than initial_delay %s", p.MaxDelay, p.InitialDelay)
	}
	if p.Backoff != "" && !slices.Contains(Backoffs, p.Backoff) {
		add("backoff", "backoff %q is not constant, linear or exponential", string(p.Backoff))
	}
	if p.Multiplier < 0 || math.IsNaN(p.Multiplier) || math.IsInf(p.Multiplier, 0) {
		add("multiplier", "multiplier must be a non-negative number, not %v", p.Multiplier)
	}
	if p.Jitter < 0 || p.Jitter > 1 || math.IsNaN(p.Jitter) {
		add("jitter", "jitter must be between 0.0 and 1.0, not %v", p.Jitter)
	}
	for _, c := range p.RetryableExitCodes {
		if c < 1 || c > 255 {
			add("retryable_exit_codes", "exit code %d can never be retried: a failed process exits with 1 to 255", c)
		}
	}
	return out
}

// Attempts is how many times the step may run in all.
func (p Policy) Attempts() int {
	if p.MaxAttempts < 1 {
		return 1
	}
	return p.MaxAttempts
}

// ShouldRetry decides after a failed attempt (1-based) that ended with exitCode whether another
// attempt follows. A failure without an exit code (a timeout, an unreachable endpoint) is
// reported as -1 and is retried only when no code filter is set.
func (p Policy) ShouldRetry(attempt, exitCode int) bool {
	if attempt >= p.Attempts() || exitCode == 0 {
		return false
	}
	return len(p.RetryableExitCodes) == 0 || slices.Contains(p.RetryableExitCodes, exitCode)
}

// Wait is the pause before retry n (1-based: n=1 follows the first attempt). rnd is a uniform
// draw in [0, 1), passed in so that the policy stays deterministic under test.
func (p Policy) Wait(n int, rnd float64) time.Duration {
	if n < 1 || p.InitialDelay <= 0 {
		return 0
	}
	base := float64(p.InitialDelay)
	switch p.Backoff {
	case Linear:
		base *= float64(n)
	case Exponential:
		m := p.Multiplier
		if m == 0 {
			m = DefaultMultiplier
		}
		base *= math.Pow(m, float64(n-1))
	}
	if p.Jitter > 0 {
		base *= 1 + p.Jitter*(2*rnd-1)
	}
	limit := float64(longestWait)
	if p.MaxDelay > 0 {
		limit = float64(p.MaxDelay)
	}
	if base > limit || math.IsNaN(base) {
		base = limit
	}
	return time.Duration(base)
}
