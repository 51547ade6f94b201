package builtins

import (
	"fmt"
	"strings"
)

// capture keeps a bounded view of an unbounded byte stream: the first head bytes and the last
// tail bytes, counting the rest and discarding it. Memory stays at head+tail however much a
// command prints (docs/design.md#pitfalls: 50 MB of Bash output once reached the agent as one line, with the
// server at 390 MB RSS). It is not safe for concurrent writers; Bash feeds it from one goroutine.
type capture struct {
	head    []byte
	headMax int
	ring    []byte // last tailMax bytes once the head is full; ring[pos] is the oldest byte
	tailMax int
	pos     int
	wrapped bool
	total   int64
}

func newCapture(limit int) *capture {
	h := limit / 2
	return &capture{headMax: h, tailMax: limit - h}
}

// Write never fails, so the copying side never blocks the command on a full pipe.
func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	c.total += int64(n)
	if room := c.headMax - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 || c.tailMax == 0 {
		return n, nil
	}
	if len(p) >= c.tailMax {
		c.ring = append(c.ring[:0], p[len(p)-c.tailMax:]...)
		c.pos, c.wrapped = 0, true
		return n, nil
	}
	if !c.wrapped {
		if len(c.ring)+len(p) <= c.tailMax {
			c.ring = append(c.ring, p...)
			c.wrapped = len(c.ring) == c.tailMax
			return n, nil
		}
		// Fill up to tailMax, then start wrapping.
		k := c.tailMax - len(c.ring)
		c.ring = append(c.ring, p[:k]...)
		p = p[k:]
		c.wrapped, c.pos = true, 0
	}
	for len(p) > 0 {
		k := copy(c.ring[c.pos:], p)
		p = p[k:]
		c.pos = (c.pos + k) % c.tailMax
	}
	return n, nil
}

// tail returns the kept tail bytes in order.
func (c *capture) tail() []byte {
	if !c.wrapped {
		return c.ring
	}
	out := make([]byte, 0, len(c.ring))
	out = append(out, c.ring[c.pos:]...)
	return append(out, c.ring[:c.pos]...)
}

// String returns the whole stream when it fit, or head, a truncation note, and tail. Invalid
// UTF-8 (including a character split by the cut) is replaced so the result is valid JSON text.
func (c *capture) String() string {
	t := c.tail()
	if c.total <= int64(c.headMax+c.tailMax) {
		return strings.ToValidUTF8(string(c.head)+string(t), "\uFFFD")
	}
	return strings.ToValidUTF8(string(c.head), "\uFFFD") +
		fmt.Sprintf("\n[output truncated: %d bytes total, showing the first %d and the last %d bytes]\n", c.total, len(c.head), len(t)) +
		strings.ToValidUTF8(string(t), "\uFFFD")
}
