package cli

import (
	"bytes"
	"io"
	"sync"
)

// headBuffer keeps the first max bytes written to it and counts the rest. stdout carries the
// CLI's JSON report, which is useless when cut, so the point of the bound is only to keep a
// runaway CLI from exhausting awf's memory.
type headBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	max     int
	dropped int64
}

// Write implements io.Writer; it never fails, so the CLI is never blocked by a full buffer.
func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	room := h.max - h.buf.Len()
	switch {
	case room >= len(p):
		h.buf.Write(p)
	case room > 0:
		h.buf.Write(p[:room])
		h.dropped += int64(len(p) - room)
	default:
		h.dropped += int64(len(p))
	}
	return len(p), nil
}

func (h *headBuffer) result() ([]byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return bytes.Clone(h.buf.Bytes()), h.dropped > 0
}

// tailBuffer keeps the last max bytes written to it: the end of stderr is where a CLI says why
// it failed, and a chatty CLI's early warnings are what can go.
type tailBuffer struct {
	mu      sync.Mutex
	buf     []byte
	max     int
	dropped bool
}

// Write implements io.Writer; it never fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= t.max {
		t.dropped = t.dropped || len(t.buf) > 0 || len(p) > t.max
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.dropped = true
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// String returns what is kept.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// pump copies r into w until EOF or until r is closed under it, then signals done.
func pump(w io.Writer, r io.Reader, done *sync.WaitGroup) {
	defer done.Done()
	_, _ = io.Copy(w, r)
}
