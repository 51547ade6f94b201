package shell

import (
	"bytes"
	"io"
)

// maxLiveLine bounds one line handed to a live sink: a longer line (a command printing a
// megabyte without a newline) is handed on in pieces of this size rather than held.
const maxLiveLine = 16 << 10

// lineTee passes what a command writes to its capped buffer and, line by line, to a live
// sink, so the console sees each line when the command prints it, not when the step ends.
type lineTee struct {
	dst     io.Writer
	stderr  bool
	live    func(stderr bool, line string)
	pending []byte
}

// tee returns dst, or dst with live fed each line when live is set.
func tee(dst io.Writer, stderr bool, live func(bool, string)) io.Writer {
	if live == nil {
		return dst
	}
	return &lineTee{dst: dst, stderr: stderr, live: live}
}

func (t *lineTee) Write(p []byte) (int, error) {
	n, err := t.dst.Write(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.pending = append(t.pending, p...)
			for len(t.pending) >= maxLiveLine {
				t.live(t.stderr, string(t.pending[:maxLiveLine]))
				t.pending = append(t.pending[:0], t.pending[maxLiveLine:]...)
			}
			break
		}
		line := p[:i]
		if len(t.pending) > 0 {
			line = append(t.pending, line...)
			t.pending = t.pending[:0]
		}
		for len(line) > maxLiveLine {
			t.live(t.stderr, string(line[:maxLiveLine]))
			line = line[maxLiveLine:]
		}
		t.live(t.stderr, string(bytes.TrimSuffix(line, []byte("\r"))))
		p = p[i+1:]
	}
	return n, err
}

// flush hands on the last line when the command ended without a newline after it.
func (t *lineTee) flush() {
	if len(t.pending) > 0 {
		t.live(t.stderr, string(t.pending))
		t.pending = nil
	}
}

// flushAll flushes each writer that is a lineTee.
func flushAll(ws ...io.Writer) {
	for _, w := range ws {
		if t, ok := w.(*lineTee); ok {
			t.flush()
		}
	}
}
