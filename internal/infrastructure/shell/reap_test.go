package shell

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/process/reaper/reapertest"
)

// TestCommandStepEndsSetsidAndDoubleFork: a command step that starts a setsid child and a
// double-forked one leaves neither running, whether the command exits or its step times out;
// each touches a marker for as long as it lives.
func TestCommandStepEndsSetsidAndDoubleFork(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tail    string
		timeout time.Duration
	}{
		{"exit", "echo done", 0},
		{"timeout", "echo done; sleep 60", 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("HOME", dir)
			t.Setenv("TMPDIR", dir)
			esc := reapertest.New(dir)
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			res, err := Runner{Grace: time.Second}.RunCommand(ctx, ports.CommandRequest{Command: esc.Script() + tc.tail, Dir: dir})
			if (err != nil) != (tc.timeout > 0) || !strings.Contains(res.Stdout, "done") {
				t.Fatalf("result %+v, err %v", res, err)
			}
			esc.CheckGone(t)
		})
	}
}
