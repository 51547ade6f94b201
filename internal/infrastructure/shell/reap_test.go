package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// TestCommandStepEndsSetsidAndDoubleFork: a command step that starts a setsid child and a
// double-forked one leaves neither running, whether the command exits or its step times out;
// each would touch a marker after sleeping past the step's end.
func TestCommandStepEndsSetsidAndDoubleFork(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tail    string
		timeout time.Duration
		sleep   int
	}{
		{"exit", "echo done", 0, 2},
		{"timeout", "echo done; touch %[1]s/ready; sleep 60", 3 * time.Second, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("HOME", dir)
			t.Setenv("TMPDIR", dir)
			script := fmt.Sprintf(`setsid sh -c 'echo $$ > %[1]s/p1; sleep %[2]d; touch %[1]s/m1' &
( sh -c 'echo $$ > %[1]s/p2; sleep %[2]d; touch %[1]s/m2' & )
while [ ! -s %[1]s/p1 ] || [ ! -s %[1]s/p2 ]; do sleep 0.01; done
`+tc.tail, dir, tc.sleep)
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			start := time.Now()
			res, err := Runner{Grace: time.Second}.RunCommand(ctx, ports.CommandRequest{Command: script, Dir: dir})
			if (err != nil) != (tc.timeout > 0) || !strings.Contains(res.Stdout, "done") {
				t.Fatalf("result %+v, err %v", res, err)
			}
			for _, f := range []string{"p1", "p2"} {
				b, _ := os.ReadFile(filepath.Join(dir, f))
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				if pid == 0 {
					t.Fatalf("%s never started", f)
				}
				if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("%s (pid %d) outlived the step", f, pid)
				}
			}
			if left := naming(dir); len(left) > 0 {
				t.Errorf("processes naming the step's directory remain: %v", left)
			}
			// They are dead already; waiting out their sleep only confirms it.
			time.Sleep(time.Until(start.Add(time.Duration(tc.sleep)*time.Second + 500*time.Millisecond)))
			for _, m := range []string{"m1", "m2"} {
				if _, err := os.Stat(filepath.Join(dir, m)); err == nil {
					t.Errorf("marker %s appeared", m)
				}
			}
		})
	}
}

// naming lists the processes whose command line contains s.
func naming(s string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		if b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && strings.Contains(string(b), s) {
			pid, _ := strconv.Atoi(e.Name())
			out = append(out, pid)
		}
	}
	return out
}
