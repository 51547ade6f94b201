package cli

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// Watch reads each line a CLI prints while it runs (stderr true for its standard error) and
// returns why the CLI cannot get anywhere, "" while nothing says so. A CLI that cannot reach
// its model server, or is refused by it, may retry without end (codex waits for the network,
// opencode retries a connection error for ever): Run stops it at the first line that says so,
// instead of holding the step until its timeout.
type Watch func(stderr bool, line string) string

// maxWatchedLine bounds the line a watch is shown; the rest of a longer line is not looked at.
const maxWatchedLine = 64 << 10

// watcher passes what the CLI writes on to w and each whole line to watch; each reason watch
// gives is handed to stop with its line.
type watcher struct {
	w       io.Writer
	stderr  bool
	watch   Watch
	stop    func(reason, line string)
	pending []byte
}

func (x *watcher) Write(p []byte) (int, error) {
	n, err := x.w.Write(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		end := i
		if i < 0 {
			end = len(p)
		}
		if room := maxWatchedLine - len(x.pending); room > 0 {
			x.pending = append(x.pending, p[:min(room, end)]...)
		}
		if i < 0 {
			break
		}
		line := string(x.pending)
		if reason := x.watch(x.stderr, line); reason != "" {
			x.stop(reason, line)
		}
		x.pending = x.pending[:0]
		p = p[i+1:]
	}
	return n, err
}

// watched returns w, or w watched by watch when there is one.
func watched(w io.Writer, stderr bool, watch Watch, stop func(reason, line string)) io.Writer {
	if watch == nil {
		return w
	}
	return &watcher{w: w, stderr: stderr, watch: watch, stop: stop}
}

// givingUp keeps the first reason a watch gave, and its line, and cancels the run with it.
type givingUp struct {
	mu           sync.Mutex
	reason, line string
	cancel       func(error)
}

func (g *givingUp) stop(reason, line string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.reason != "" {
		return
	}
	g.reason, g.line = reason, line
	g.cancel(errGaveUp)
}

func (g *givingUp) given() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.reason != ""
}

// errGaveUp is the cause a run is stopped with when its watch saw the CLI cannot get anywhere.
var errGaveUp = errors.New("the CLI cannot get anywhere")

// GaveUp is the error for a CLI awf stopped because a line it printed said it cannot get
// anywhere: the reason, that line, and the end of its stderr, where it says more.
func GaveUp(provider, reason, line string, r Result) *fault.Error {
	detail := Tail(r.Stderr, tailBytes)
	if detail == "" {
		detail = "(nothing)"
	}
	return fault.New(fault.ExecutionAgentCLIFailed, "%s %s, so awf stopped it after %s instead of waiting for the step's timeout; it said: %s; the end of its stderr: %s",
		provider, reason, r.Duration.Round(100*time.Millisecond), Head(line, 500), detail).
		WithHint("run the same command by hand to see the full output; check the CLI's credentials and options")
}

// hinted gives a failure of the CLI (it exited with an error, or awf stopped it) this CLI's
// hint; other errors are returned as they are.
func (s Spec) hinted(err error) error {
	var fe *fault.Error
	if s.Hint != "" && errors.As(err, &fe) && fe.Code == fault.ExecutionAgentCLIFailed {
		fe.WithHint("%s", s.Hint)
	}
	return err
}
