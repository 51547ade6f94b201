package filelock

import (
	"testing"
	"time"
)

func TestBackoffNext(t *testing.T) {
	b := Backoff{First: time.Millisecond, Max: 5 * time.Millisecond}
	for _, tc := range []struct{ wait, want time.Duration }{
		{time.Millisecond, 2 * time.Millisecond},
		{2 * time.Millisecond, 4 * time.Millisecond},
		{4 * time.Millisecond, 5 * time.Millisecond},
		{5 * time.Millisecond, 5 * time.Millisecond},
	} {
		if got := b.next(tc.wait); got != tc.want {
			t.Errorf("next(%v) = %v, want %v", tc.wait, got, tc.want)
		}
	}
}
