package mcpserver

import (
	"bufio"
	"errors"
	"io"
)

// peekWindow is how many leading bytes of an oversized line are kept, so the
// request id can still be recovered from them and the error response reaches
// the caller that is waiting for it.
const peekWindow = 4 << 10

// line is one newline-delimited frame read from the client.
type line struct {
	// data holds the line without its terminator or, when tooLong is set, at
	// most peekWindow leading bytes of it.
	data []byte
	// tooLong reports that the line exceeded the limit and was discarded
	// without being buffered.
	tooLong bool
	// size is the full length of the line without its newline, counted even
	// for a discarded line so that the error can say how big it was.
	size int
}

// lineReader splits a stream into lines while holding at most limit bytes of
// one line in memory. The SDK's own decoder reads JSON values, not lines, and
// gives up the whole session on the first bad one; reading lines here lets
// each line be judged on its own.
type lineReader struct {
	br    *bufio.Reader
	limit int
}

func newLineReader(r io.Reader, limit int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), limit: limit}
}

// next returns the next line. A last line without a newline is returned
// before io.EOF. Any error other than io.EOF comes from the underlying reader,
// and a line it interrupted is dropped.
func (lr *lineReader) next() (line, error) {
	var (
		l    line
		seen bool
	)
	for {
		chunk, err := lr.br.ReadSlice('\n')
		seen = seen || len(chunk) > 0
		ended := err == nil // ReadSlice returns a nil error only at a newline
		body := chunk
		if ended {
			body = chunk[:len(chunk)-1]
		}
		l.size += len(body)
		switch {
		case l.tooLong:
		case l.size > lr.limit:
			// Keep only the head, in a fresh slice so the rest can be freed.
			l.tooLong = true
			if len(l.data) < peekWindow {
				l.data = append(l.data, body[:min(len(body), peekWindow-len(l.data))]...)
			}
			l.data = append([]byte(nil), l.data[:min(len(l.data), peekWindow)]...)
		default:
			l.data = append(l.data, body...)
		}
		switch {
		case ended, errors.Is(err, io.EOF) && seen:
			if !l.tooLong && len(l.data) > 0 && l.data[len(l.data)-1] == '\r' {
				l.data = l.data[:len(l.data)-1]
			}
			return l, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return line{}, err
		}
	}
}
