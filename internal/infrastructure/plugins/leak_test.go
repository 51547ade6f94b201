package plugins

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestHostLeavesNoGoroutines runs a host through start, calls, a crash and Close, and checks
// that every goroutine it started (its own and go-plugin's) has ended.
func TestHostLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	f := newFixture(t, "", Options{})
	f.exec(t, "echo", "echo", `{"text":"a"}`)
	f.exec(t, "notes", "list", `{}`)
	_ = crashDuringCall(t, f)
	f.exec(t, "echo", "echo", `{"text":"b"}`)
	if err := f.host.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		t.Errorf("%d goroutines before the host, %d after Close:\n%s", before, n, keepOurs(stacks))
	}
}

// keepOurs trims a full stack dump to the goroutines that mention plugins or go-plugin/grpc.
func keepOurs(stacks string) string {
	var out []string
	for _, g := range strings.Split(stacks, "\n\n") {
		if strings.Contains(g, "plugin") || strings.Contains(g, "grpc") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}
