package run

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/retry"
)

// flaky answers a command with the next result of a list, one per run.
type flaky struct {
	results []ports.CommandResult
	runs    int
}

func (f *flaky) RunCommand(context.Context, ports.CommandRequest) (ports.CommandResult, error) {
	r := f.results[min(f.runs, len(f.results)-1)]
	f.runs++
	return r, nil
}

func TestRetry(t *testing.T) {
	fail := func(code int) ports.CommandResult { return ports.CommandResult{ExitCode: code, Stderr: "boom"} }
	ok := ports.CommandResult{Stdout: "fine"}
	tests := []struct {
		name     string
		policy   retry.Policy
		results  []ports.CommandResult
		runs     int
		waits    []time.Duration
		next     string
		attempts int
	}{
		{"succeeds on the third attempt, with exponential waits", retry.Policy{MaxAttempts: 3, InitialDelay: time.Second, Backoff: retry.Exponential},
			[]ports.CommandResult{fail(1), fail(1), ok}, 3, []time.Duration{time.Second, 2 * time.Second}, "done", 3},
		{"gives up after max_attempts", retry.Policy{MaxAttempts: 2, InitialDelay: time.Second},
			[]ports.CommandResult{fail(1)}, 2, []time.Duration{time.Second}, "bad", 2},
		{"an exit code not listed is not retried", retry.Policy{MaxAttempts: 5, RetryableExitCodes: []int{22}},
			[]ports.CommandResult{fail(1)}, 1, nil, "bad", 0},
		{"a success is not retried", retry.Policy{MaxAttempts: 5}, []ports.CommandResult{ok}, 1, nil, "done", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := cmdState("a", "make", "done", "bad")
			p := tt.policy
			s.Retry = &p
			sh := &flaky{results: tt.results}
			var waits []time.Duration
			rec := &recorder{}
			opts := Options{Commands: sh, Observer: rec, Rand: func() float64 { return 0.5 },
				Wait: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
			res, _ := newRun(t, opts).Run(context.Background(), flow(s), one)
			if sh.runs != tt.runs || !reflect.DeepEqual(waits, tt.waits) || res.Steps[0].Next != tt.next || res.Steps[0].Attempts != tt.attempts {
				t.Fatalf("runs %d waits %v next %q attempts %d", sh.runs, waits, res.Steps[0].Next, res.Steps[0].Attempts)
			}
			var retries []StepRetrying
			for _, e := range rec.events {
				if r, ok := e.(StepRetrying); ok {
					retries = append(retries, r)
				}
			}
			if len(retries) != len(tt.waits) {
				t.Fatalf("%d retry events for %d waits", len(retries), len(tt.waits))
			}
			for i, r := range retries {
				if r.Attempt != i+1 || r.Of != p.Attempts() || r.Wait != tt.waits[i] || r.ExitCode != 1 || r.Error == "" {
					t.Errorf("retry event %d = %+v", i, r)
				}
			}
		})
	}
}

func TestRetryWaitInterrupted(t *testing.T) {
	s := cmdState("a", "make", "done", "bad")
	s.Retry = &retry.Policy{MaxAttempts: 3, InitialDelay: time.Hour}
	sh := &flaky{results: []ports.CommandResult{{ExitCode: 1}}}
	opts := Options{Commands: sh, Wait: func(context.Context, time.Duration) error { return context.Canceled }}
	_, err := newRun(t, opts).Run(context.Background(), flow(s), one)
	if fault.CodeOf(err) != fault.InterruptRunSignal || sh.runs != 1 {
		t.Fatalf("err %v runs %d", err, sh.runs)
	}
}

func TestSleepHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if err := sleep(context.Background(), time.Nanosecond); err != nil {
		t.Fatalf("err = %v", err)
	}
}
