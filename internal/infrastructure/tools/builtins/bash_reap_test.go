package builtins

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/process/reaper/reapertest"
)

// TestBashSetsidAndDoubleForkEndWithCall: an unsandboxed call that starts a setsid child and a
// double-forked one leaves neither behind, whether the command exits or times out; each
// touches a marker for as long as it lives.
func TestBashSetsidAndDoubleForkEndWithCall(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tail    string
		timeout int
		isErr   bool
	}{
		{"exit", "echo done", 0, false},
		{"timeout", "echo done; sleep 60", 3000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, root := newTestProvider(t)
			esc := reapertest.New(root)
			args := map[string]any{"command": esc.Script() + tc.tail}
			if tc.timeout > 0 {
				args["timeout"] = tc.timeout
			}
			res := call(t, p, "Bash", args)
			if res.IsError != tc.isErr || !strings.Contains(res.JoinedText(), "done") {
				t.Fatalf("IsError=%v: %s", res.IsError, res.JoinedText())
			}
			esc.CheckGone(t)
		})
	}
}
