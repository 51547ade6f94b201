package mcpserver

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestLineReader(t *testing.T) {
	type want struct {
		data    string
		size    int
		tooLong bool
	}
	cases := []struct {
		name  string
		input string
		limit int
		want  []want
	}{
		{"LF lines", "a\nbc\n", 10, []want{{"a", 1, false}, {"bc", 2, false}}},
		{"CRLF lines", "a\r\nbc\r\n", 10, []want{{"a", 2, false}, {"bc", 3, false}}},
		{"last line without newline", "a\nlast", 10, []want{{"a", 1, false}, {"last", 4, false}}},
		{"empty lines", "\n\nx\n", 10, []want{{"", 0, false}, {"", 0, false}, {"x", 1, false}}},
		{"exactly the limit", "12345\n", 5, []want{{"12345", 5, false}}},
		{"one over the limit", "123456\nok\n", 5, []want{{"123456", 6, true}, {"ok", 2, false}}},
		{"empty input", "", 10, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lr := newLineReader(strings.NewReader(tc.input), tc.limit)
			for i, w := range tc.want {
				l, err := lr.next()
				if err != nil {
					t.Fatalf("line %d: %v", i, err)
				}
				if string(l.data) != w.data || l.size != w.size || l.tooLong != w.tooLong {
					t.Fatalf("line %d = {%q %d %v}, want {%q %d %v}", i, l.data, l.size, l.tooLong, w.data, w.size, w.tooLong)
				}
			}
			if _, err := lr.next(); !errors.Is(err, io.EOF) {
				t.Fatalf("after the last line: %v, want io.EOF", err)
			}
		})
	}
}

func TestLineReaderDoesNotBufferLongLines(t *testing.T) {
	const size = 20 << 20
	input := io.MultiReader(strings.NewReader(`{"id":7,"x":"`), &repeatReader{b: 'x', n: size}, strings.NewReader("\"}\nnext\n"))
	lr := newLineReader(input, 1<<20)
	l, err := lr.next()
	if err != nil {
		t.Fatal(err)
	}
	if !l.tooLong || len(l.data) > peekWindow || l.size != size+15 {
		t.Fatalf("long line: tooLong=%v kept=%d size=%d; want tooLong, at most %d bytes kept, size %d", l.tooLong, len(l.data), l.size, peekWindow, size+15)
	}
	if id := peekID(l.data); string(id) != "7" {
		t.Fatalf("id from the kept prefix = %s, want 7", id)
	}
	if l, err := lr.next(); err != nil || string(l.data) != "next" {
		t.Fatalf("line after the long one = %q, %v; want next", l.data, err)
	}
}

// repeatReader yields n copies of b without allocating them all.
type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.n)
	for i := range n {
		p[i] = r.b
	}
	r.n -= n
	return n, nil
}

type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

func TestLineReaderReportsReadErrors(t *testing.T) {
	boom := errors.New("device gone")
	lr := newLineReader(io.MultiReader(strings.NewReader("partial"), failingReader{boom}), 100)
	if _, err := lr.next(); !errors.Is(err, boom) {
		t.Fatalf("next = %v, want the reader's error", err)
	}
}
