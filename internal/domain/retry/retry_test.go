package retry

import (
	"reflect"
	"testing"
	"time"
)

func TestWait(t *testing.T) {
	s := time.Second
	tests := []struct {
		name string
		p    Policy
		rnd  float64
		want []time.Duration // waits before retries 1, 2, 3, ...
	}{
		{"no delay", Policy{MaxAttempts: 3}, 0.5, []time.Duration{0, 0}},
		{"constant by default", Policy{InitialDelay: 2 * s}, 0.5, []time.Duration{2 * s, 2 * s, 2 * s}},
		{"constant", Policy{InitialDelay: 2 * s, Backoff: Constant}, 0.5, []time.Duration{2 * s, 2 * s}},
		{"linear", Policy{InitialDelay: s, Backoff: Linear}, 0.5, []time.Duration{s, 2 * s, 3 * s, 4 * s}},
		{"exponential x2 by default", Policy{InitialDelay: s, Backoff: Exponential}, 0.5, []time.Duration{s, 2 * s, 4 * s, 8 * s}},
		{"exponential x1.5", Policy{InitialDelay: 500 * time.Millisecond, Backoff: Exponential, Multiplier: 1.5}, 0.5,
			[]time.Duration{500 * time.Millisecond, 750 * time.Millisecond, 1125 * time.Millisecond}},
		{"capped", Policy{InitialDelay: s, Backoff: Exponential, MaxDelay: 3 * s}, 0.5, []time.Duration{s, 2 * s, 3 * s, 3 * s}},
		{"jitter low draw", Policy{InitialDelay: 2 * s, Jitter: 0.5}, 0, []time.Duration{s, s}},
		{"jitter high draw", Policy{InitialDelay: 2 * s, Jitter: 0.5}, 1, []time.Duration{3 * s, 3 * s}},
		{"jitter middle draw", Policy{InitialDelay: 2 * s, Jitter: 0.5}, 0.5, []time.Duration{2 * s}},
		{"jitter never passes max_delay", Policy{InitialDelay: 2 * s, Jitter: 1, MaxDelay: 3 * s}, 1, []time.Duration{3 * s}},
		{"no overflow without max_delay", Policy{InitialDelay: time.Hour, Backoff: Exponential, Multiplier: 10}, 0.5,
			[]time.Duration{time.Hour, 10 * time.Hour, longestWait, longestWait}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []time.Duration
			for n := 1; n <= len(tt.want); n++ {
				got = append(got, tt.p.Wait(n, tt.rnd))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("waits = %v, want %v", got, tt.want)
			}
			if w := tt.p.Wait(0, tt.rnd); w != 0 {
				t.Errorf("Wait(0) = %s, want 0", w)
			}
		})
	}
}

func TestShouldRetry(t *testing.T) {
	tests := []struct {
		name     string
		p        Policy
		attempt  int
		exitCode int
		want     bool
	}{
		{"zero value never retries", Policy{}, 1, 1, false},
		{"retries a failure", Policy{MaxAttempts: 3}, 1, 1, true},
		{"second failure of three", Policy{MaxAttempts: 3}, 2, 7, true},
		{"last attempt", Policy{MaxAttempts: 3}, 3, 1, false},
		{"success is not retried", Policy{MaxAttempts: 3}, 1, 0, false},
		{"listed code", Policy{MaxAttempts: 3, RetryableExitCodes: []int{1, 22}}, 1, 22, true},
		{"unlisted code", Policy{MaxAttempts: 3, RetryableExitCodes: []int{1, 22}}, 1, 5, false},
		{"no exit code, no filter", Policy{MaxAttempts: 2}, 1, -1, true},
		{"no exit code, filter", Policy{MaxAttempts: 2, RetryableExitCodes: []int{1}}, 1, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.ShouldRetry(tt.attempt, tt.exitCode); got != tt.want {
				t.Errorf("ShouldRetry(%d, %d) = %v, want %v", tt.attempt, tt.exitCode, got, tt.want)
			}
		})
	}
}

func TestAttempts(t *testing.T) {
	for in, want := range map[int]int{-1: 1, 0: 1, 1: 1, 5: 5} {
		if got := (Policy{MaxAttempts: in}).Attempts(); got != want {
			t.Errorf("Attempts(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestProblems(t *testing.T) {
	tests := []struct {
		name   string
		p      Policy
		fields []string
	}{
		{"valid", Policy{MaxAttempts: 3, InitialDelay: time.Second, MaxDelay: time.Minute, Backoff: Exponential, Multiplier: 1.5, Jitter: 0.2, RetryableExitCodes: []int{1, 255}}, nil},
		{"zero value", Policy{}, nil},
		{"delay without a cap", Policy{InitialDelay: time.Second}, nil},
		{"bounds are valid", Policy{MaxAttempts: MaxAttemptsLimit, Jitter: 1, InitialDelay: time.Second, MaxDelay: time.Second}, nil},
		{"attempts negative", Policy{MaxAttempts: -1}, []string{"max_attempts"}},
		{"attempts too many", Policy{MaxAttempts: MaxAttemptsLimit + 1}, []string{"max_attempts"}},
		{"negative delays", Policy{InitialDelay: -1, MaxDelay: -1}, []string{"initial_delay", "max_delay"}},
		{"cap below start", Policy{InitialDelay: 2 * time.Second, MaxDelay: time.Second}, []string{"max_delay"}},
		{"unknown backoff", Policy{Backoff: "fibonacci"}, []string{"backoff"}},
		{"negative multiplier", Policy{Multiplier: -0.5}, []string{"multiplier"}},
		{"jitter above one", Policy{Jitter: 1.5}, []string{"jitter"}},
		{"jitter negative", Policy{Jitter: -0.1}, []string{"jitter"}},
		{"impossible exit codes", Policy{RetryableExitCodes: []int{0, 256, 3}}, []string{"retryable_exit_codes", "retryable_exit_codes"}},
		{"all at once", Policy{MaxAttempts: -2, Backoff: "x", Jitter: 2}, []string{"max_attempts", "backoff", "jitter"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, pr := range tt.p.Problems() {
				got = append(got, pr.Field)
				if pr.Message == "" {
					t.Errorf("%s: empty message", pr.Field)
				}
			}
			if !reflect.DeepEqual(got, tt.fields) {
				t.Errorf("problems in %v, want %v", got, tt.fields)
			}
		})
	}
}
