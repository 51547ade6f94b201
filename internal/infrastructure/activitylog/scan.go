package activitylog

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
)

// MaxLine is the longest line the reader accepts. Records truncate large arguments, so a real
// line is a few KiB; a longer one is damage and is skipped without being held in memory.
const MaxLine = 16 << 20

// ctxCheckEvery is how many lines are read between two looks at the context.
const ctxCheckEvery = 1024

// scan streams the file and calls fn for every well-formed record until fn returns false.
func (s FileStore) scan(ctx context.Context, fn func(activity.Record) bool) (ScanReport, error) {
	var rep ScanReport
	f, err := os.Open(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return rep, nil
	}
	if err != nil {
		return rep, fault.Wrap(err, fault.SystemActivityReadFailed, "cannot open activity file %s", s.Path)
	}
	defer f.Close()

	br := bufio.NewReaderSize(f, 64<<10)
	for lineNo := 1; ; lineNo++ {
		if lineNo%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
		}
		line, complete, tooLong, err := readLine(br)
		if err != nil {
			return rep, fault.Wrap(err, fault.SystemActivityReadFailed, "cannot read activity file %s", s.Path)
		}
		if line == nil && !tooLong {
			return rep, nil // end of file
		}
		if tooLong {
			rep.Lines++
			rep.skip(lineNo, fmt.Sprintf("longer than %d bytes", MaxLine))
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rep.Lines++
		r, err := Decode(line)
		if err != nil {
			if !complete {
				// A last line without its newline is a record another process is still
				// writing; it is not damage, and the next read will see it whole.
				rep.Lines--
				return rep, nil
			}
			rep.skip(lineNo, err.Error())
			continue
		}
		if !fn(r) {
			return rep, nil
		}
	}
}

// readLine returns the next line without its newline. complete is false for a last line with no
// newline; tooLong reports a line over MaxLine, which is consumed but not returned. At end of
// file it returns a nil line.
func readLine(br *bufio.Reader) (line []byte, complete, tooLong bool, err error) {
	var buf []byte
	add := func(chunk []byte) {
		if !tooLong && len(buf)+len(chunk) > MaxLine {
			tooLong, buf = true, nil
		}
		if !tooLong {
			buf = append(buf, chunk...)
		}
	}
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case err == nil:
			add(chunk[:len(chunk)-1])
			if tooLong {
				return nil, true, true, nil
			}
			if buf == nil {
				buf = []byte{}
			}
			return buf, true, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			add(chunk)
		case errors.Is(err, io.EOF):
			add(chunk)
			if tooLong {
				return nil, false, true, nil
			}
			if len(buf) == 0 {
				return nil, false, false, nil
			}
			return buf, false, false, nil
		default:
			return nil, false, false, err
		}
	}
}
