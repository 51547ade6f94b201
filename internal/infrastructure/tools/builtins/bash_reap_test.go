package builtins

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBashSetsidAndDoubleForkEndWithCall: an unsandboxed call that starts a setsid child and a
// double-forked one leaves neither behind, whether the command exits or times out; each would
// touch a marker after sleeping past the call's end.
func TestBashSetsidAndDoubleForkEndWithCall(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tail    string
		timeout int
		sleep   int // seconds before the escapers touch their markers
		isErr   bool
	}{
		{"exit", "echo done", 0, 2, false},
		{"timeout", "echo done; sleep 60", 3000, 5, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, root := newTestProvider(t)
			script := fmt.Sprintf(`setsid sh -c 'echo $$ > %[1]s/p1; sleep %[3]d; touch %[1]s/m1' &
( sh -c 'echo $$ > %[1]s/p2; sleep %[3]d; touch %[1]s/m2' & )
while [ ! -s %[1]s/p1 ] || [ ! -s %[1]s/p2 ]; do sleep 0.01; done
%[2]s`, root, tc.tail, tc.sleep)
			args := map[string]any{"command": script}
			if tc.timeout > 0 {
				args["timeout"] = tc.timeout
			}
			start := time.Now()
			res := call(t, p, "Bash", args)
			if res.IsError != tc.isErr || !strings.Contains(res.JoinedText(), "done") {
				t.Fatalf("IsError=%v: %s", res.IsError, res.JoinedText())
			}
			for _, f := range []string{"p1", "p2"} {
				b, _ := os.ReadFile(filepath.Join(root, f))
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				if pid == 0 {
					t.Fatalf("%s never started", f)
				}
				if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("%s (pid %d) outlived the call", f, pid)
				}
			}
			if n := procsWith(root); n > 0 {
				t.Errorf("%d processes naming the root remain", n)
			}
			// They are dead already; waiting out their sleep only confirms it.
			time.Sleep(time.Until(start.Add(time.Duration(tc.sleep)*time.Second + 500*time.Millisecond)))
			for _, m := range []string{"m1", "m2"} {
				if _, err := os.Stat(filepath.Join(root, m)); err == nil {
					t.Errorf("marker %s appeared", m)
				}
			}
		})
	}
}
