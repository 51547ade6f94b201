package routing

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

type ctxKey struct{}

// recordContext behaves as context.WithTimeout(context.WithoutCancel(parent), d).
func TestRecordContext(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "v"))
	cancel()
	deadline := time.Now().Add(50 * time.Millisecond)
	c := newRecordContext(parent, deadline)
	if d, ok := c.Deadline(); !ok || !d.Equal(deadline) {
		t.Errorf("Deadline = %v %v", d, ok)
	}
	if c.Err() != nil || c.Value(ctxKey{}) != "v" {
		t.Fatalf("a cancelled parent leaked through: Err %v, value %v", c.Err(), c.Value(ctxKey{}))
	}
	select {
	case <-c.Done():
		if !errors.Is(c.Err(), context.DeadlineExceeded) {
			t.Errorf("Err after Done = %v", c.Err())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Done not closed after the deadline")
	}
	c.release()

	past := newRecordContext(context.Background(), time.Now().Add(-time.Second))
	if !errors.Is(past.Err(), context.DeadlineExceeded) {
		t.Errorf("Err past the deadline = %v", past.Err())
	}
	select {
	case <-past.Done():
	default:
		t.Error("Done of a context past its deadline is open")
	}

	unused := newRecordContext(context.Background(), time.Now().Add(time.Hour))
	unused.release()
	if unused.timer != nil {
		t.Error("release started a timer")
	}
	select {
	case <-unused.Done():
	default:
		t.Error("Done after release blocks")
	}
	waited := newRecordContext(context.Background(), time.Now().Add(time.Hour))
	_ = waited.Done()
	waited.release()
	if waited.timer == nil || waited.timer.Stop() {
		t.Error("release left the timer running")
	}
}

// Arguments without a long string are recorded as they are (no copy); with one, a truncated
// copy is recorded and the validated arguments stay untouched.
func TestTruncateArgsCopiesOnlyWhenItCuts(t *testing.T) {
	short := map[string]any{"a": "x", "n": 1.0, "l": []any{"y", map[string]any{"z": true}}}
	if got := truncateArgs(short); reflect.ValueOf(got).Pointer() != reflect.ValueOf(short).Pointer() {
		t.Error("arguments without a long string were copied")
	}
	long := strings.Repeat("x", maxRecordedString+1)
	in := map[string]any{"a": "x", "l": []any{map[string]any{"z": long}}}
	got := truncateArgs(in)
	if reflect.ValueOf(got).Pointer() == reflect.ValueOf(in).Pointer() || in["l"].([]any)[0].(map[string]any)["z"] != long {
		t.Fatal("a long string was not cut in a copy")
	}
	if cut := got["l"].([]any)[0].(map[string]any)["z"].(string); !strings.HasSuffix(cut, "…[truncated 1 bytes]") {
		t.Errorf("cut = %.40q…", cut)
	}
}
