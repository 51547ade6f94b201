package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/process/reaper/reapertest"
)

// TestRunEndsWhatTheCLILeftBehind: a fake agent CLI that starts a setsid child and a
// double-forked one, then prints its report and exits, leaves neither running once Run
// returns, with the CLI's own exit code kept; likewise when the step is stopped while the CLI
// still runs. Each escaper touches a marker for as long as it lives.
func TestRunEndsWhatTheCLILeftBehind(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tail    string
		timeout time.Duration
		exit    int
	}{
		{"the CLI exits", `printf '{"result":"ok"}'; exit 3`, 0, 3},
		{"the step is stopped", `printf '{"result":"ok"}'; sleep 60`, 2 * time.Second, 128 + 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			esc := reapertest.New(dir)
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			cfg := Config{Linger: 200 * time.Millisecond, Grace: 300 * time.Millisecond}
			res, err := cfg.Run(ctx, sh(esc.Script()+tc.tail, "HOME="+dir, "TMPDIR="+dir))
			if (err != nil) != (tc.timeout > 0) || !strings.Contains(string(res.Stdout), `"ok"`) || res.ExitCode != tc.exit {
				t.Fatalf("exit %d, stdout %q, err %v", res.ExitCode, res.Stdout, err)
			}
			esc.CheckGone(t)
		})
	}
}
