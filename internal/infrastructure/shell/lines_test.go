package shell

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// TestLiveLinesComeAsPrinted: a command printing a line, then sleeping, hands its first line to
// the live sink while it still runs, and every line of both streams reaches the sink whole,
// the last one without a newline included; the result still holds the whole output.
func TestLiveLinesComeAsPrinted(t *testing.T) {
	type got struct {
		stderr bool
		line   string
		at     time.Duration
	}
	var mu sync.Mutex
	var lines []got
	start := time.Now()
	live := func(stderr bool, line string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, got{stderr, line, time.Since(start)})
	}
	res, err := Runner{}.RunCommand(context.Background(), ports.CommandRequest{
		Command: `echo first; printf 'par'; sleep 1; printf 'tial\r\n'; echo oops >&2; printf 'no newline'`, Live: live})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "first\npartial\r\nno newline" || res.Stderr != "oops\n" {
		t.Errorf("result changed by the live sink: %q %q", res.Stdout, res.Stderr)
	}
	var out, errs []string
	for _, l := range lines {
		if l.stderr {
			errs = append(errs, l.line)
		} else {
			out = append(out, l.line)
		}
	}
	// The two streams are read by two goroutines: each keeps its order, not their interleaving.
	if strings.Join(out, "|") != "first|partial|no newline" || strings.Join(errs, "|") != "oops" {
		t.Fatalf("live lines %+v", lines)
	}
	if lines[0].at > 700*time.Millisecond {
		t.Errorf("the first line came %s after the start, not before the command's 1 s sleep", lines[0].at)
	}
}

// TestLiveLinesCutsLongLines: a line longer than maxLiveLine is handed on in pieces, never
// held whole.
func TestLiveLinesCutsLongLines(t *testing.T) {
	var pieces []string
	w := tee(&capped{max: 1 << 20}, false, func(_ bool, l string) { pieces = append(pieces, l) })
	long := strings.Repeat("a", 2*maxLiveLine+5)
	_, _ = w.Write([]byte(long[:100]))
	_, _ = w.Write([]byte(long[100:] + "\nb\n"))
	if len(pieces) != 4 || pieces[0] != long[:maxLiveLine] || pieces[2] != "aaaaa" || pieces[3] != "b" {
		t.Errorf("pieces: %d (%d, %q)", len(pieces), len(pieces[0]), pieces[len(pieces)-1])
	}
	if tee(nil, false, nil) != nil {
		t.Error("no live sink: the writer is the buffer itself")
	}
}
