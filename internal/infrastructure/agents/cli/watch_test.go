package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// TestRunStopsACLIItsWatchGivesUpOn: a "CLI" that says on stderr it cannot connect and then
// retries for ever is stopped as soon as its watch says so, well before the context's end, and
// the error names the reason, the line that gave it and the end of its stderr; the CLI and
// what it started are gone. Without a watch the same CLI runs until the context ends.
func TestRunStopsACLIItsWatchGivesUpOn(t *testing.T) {
	script := `echo starting >&2; echo '{"type":"turn.started"}'; while :; do echo 'level=ERROR message="stream error" error="Cannot connect to API"' >&2; sleep 0.2; done`
	watch := func(stderr bool, line string) string {
		if stderr && strings.Contains(line, "Cannot connect") {
			return "cannot reach its model server"
		}
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := sh(script)
	cmd.Watch = watch
	start := time.Now()
	res, err := Config{Grace: time.Second, Linger: 100 * time.Millisecond}.Run(ctx, cmd)
	took := time.Since(start)
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Code != fault.ExecutionAgentCLIFailed {
		t.Fatalf("err = %v, want %s", err, fault.ExecutionAgentCLIFailed)
	}
	if took > 5*time.Second || ctx.Err() != nil {
		t.Errorf("stopped after %s, want at once", took)
	}
	for _, want := range []string{"fake cannot reach its model server", `Cannot connect to API`, "starting"} {
		if !strings.Contains(fe.Message, want) {
			t.Errorf("message lacks %q: %s", want, fe.Message)
		}
	}
	if !strings.Contains(string(res.Stdout), "turn.started") {
		t.Errorf("stdout not kept: %q", res.Stdout)
	}

	short, cancel2 := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel2()
	start = time.Now()
	_, err = Config{Grace: time.Second, Linger: 100 * time.Millisecond}.Run(short, sh(script))
	if !errors.As(err, &fe) || fe.Code != fault.ExecutionAgentStopped || time.Since(start) < time.Second {
		t.Errorf("without a watch: %v after %s, want stopped by the context", err, time.Since(start))
	}
}

// TestWatcherSeesWholeLines: lines written in pieces reach the watch whole, an over-long line
// is cut, and the reason stops the run once.
func TestWatcherSeesWholeLines(t *testing.T) {
	var lines []string
	var stops []string
	w := watched(&tailBuffer{max: 1 << 20}, true, func(_ bool, l string) string {
		lines = append(lines, l)
		if l == "bad" {
			return "bad"
		}
		return ""
	}, func(r, _ string) { stops = append(stops, r) })
	for _, p := range []string{"he", "llo\nba", "d\n", strings.Repeat("x", maxWatchedLine+10), "\nbad\n"} {
		_, _ = w.Write([]byte(p))
	}
	if len(lines) != 4 || lines[0] != "hello" || lines[1] != "bad" || len(lines[2]) != maxWatchedLine || lines[3] != "bad" {
		t.Errorf("lines %d: %q %q", len(lines), lines[0], lines[1])
	}
	if len(stops) != 2 {
		t.Errorf("stop called %d times, want once per line giving a reason", len(stops))
	}
	g := &givingUp{cancel: func(error) {}}
	g.stop("first", "a")
	g.stop("second", "b")
	if g.reason != "first" || g.line != "a" || !g.given() {
		t.Errorf("givingUp keeps %q %q, want the first", g.reason, g.line)
	}
	if watched(nil, false, nil, nil) != nil {
		t.Error("no watch: the writer is the buffer itself")
	}
}
