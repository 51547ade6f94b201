package builtins

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/awf-dev/awf/internal/domain/tool"

	"github.com/awf-dev/awf/internal/infrastructure/tools/search"
)

type readArgs struct {
	FilePath string `json:"file_path"`
	Offset   *int   `json:"offset"`
	Limit    *int   `json:"limit"`
}

func (p *Provider) callRead(ctx context.Context, raw json.RawMessage) tool.Result {
	var a readArgs
	if err := decodeArgs(raw, &a, "file_path"); err != nil {
		return tool.Error("Read: " + err.Error())
	}
	offset, limit := 1, readDefaultLimit
	if a.Offset != nil {
		if *a.Offset < 0 {
			return tool.Error(fmt.Sprintf("Read: argument \"offset\" must be >= 0 (1 is the first line), got %d", *a.Offset))
		}
		offset = max(*a.Offset, 1)
	}
	if a.Limit != nil {
		if *a.Limit < 1 {
			return tool.Error(fmt.Sprintf("Read: argument \"limit\" must be >= 1, got %d", *a.Limit))
		}
		limit = *a.Limit
	}
	f, path, err := p.root.OpenForRead(a.FilePath)
	if err != nil {
		return tool.Error("Read: " + err.Error())
	}
	defer f.Close()
	if err := p.refuseHidden(path); err != nil {
		return tool.Error("Read: " + err.Error())
	}
	out, err := readLines(ctx, f, path, offset, limit, p.maxOut)
	if err != nil {
		return tool.Error("Read: " + err.Error())
	}
	return tool.Text(out)
}

// readLines formats lines [offset, offset+limit) of r like `cat -n`. It streams: memory is
// bounded by the reader's buffer plus one shown line, whatever the file's size or line lengths,
// and every line of the file is reachable by paging because the size cap applies to the output,
// after offset and limit (docs/design.md#pitfalls).
func readLines(ctx context.Context, r io.Reader, name string, offset, limit, maxOut int) (string, error) {
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil)
		readerPool.Put(br)
	}()
	head, err := br.Peek(search.BinarySniffBytes)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return "", fmt.Errorf("cannot read %s: %v", name, err)
	}
	if len(head) == 0 {
		return fmt.Sprintf("%s is empty (0 lines).", name), nil
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "", fmt.Errorf("%s looks like a binary file (it has a NUL byte in its first 8 KiB); Read shows text files only", name)
	}
	var (
		out      = make([]byte, 0, outputHint(r, maxOut))
		line     []byte // the shown prefix of the current line
		lineLen  int    // bytes of the current line seen so far
		lineNo   = 0
		last     = offset + limit - 1
		capNote  string
		keepMax  = search.MaxLineChars * utf8.UTFMax
		finished bool
	)
	emit := func() bool {
		before := len(out)
		out = appendLine(out, lineNo, line, lineLen)
		if len(out) > maxOut {
			out = out[:before]
			capNote = fmt.Sprintf("\n[output capped at %d bytes: lines %d-%d shown; call Read with offset=%d to continue]", maxOut, offset, lineNo-1, lineNo)
			return false
		}
		return true
	}
	for !finished {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			if lineLen == 0 {
				lineNo++
			}
			inWindow := lineNo >= offset && lineNo <= last
			if inWindow && len(line) < keepMax {
				line = append(line, chunk[:min(len(chunk), keepMax-len(line))]...)
			}
			lineLen += len(chunk)
			if chunk[len(chunk)-1] == '\n' {
				if inWindow && !emit() {
					break
				}
				line, lineLen = line[:0], 0
				if lineNo == last {
					finished = true
				}
			}
		}
		switch {
		case err == nil || errors.Is(err, bufio.ErrBufferFull):
		case err == io.EOF:
			if lineLen > 0 && lineNo >= offset && lineNo <= last && !emit() {
				return finalText(out, capNote), nil
			}
			if lineNo < offset {
				return "", fmt.Errorf("offset %d is past the end of %s, which has %d line%s", offset, name, lineNo, plural(lineNo))
			}
			return finalText(out, capNote), nil
		default:
			return "", fmt.Errorf("cannot read %s: %v", name, err)
		}
		if capNote != "" {
			break
		}
	}
	if capNote == "" {
		if _, err := br.Peek(1); err == nil {
			capNote = fmt.Sprintf("\n[showing lines %d-%d; the file continues: call Read with offset=%d for more]", offset, last, last+1)
		}
	}
	return finalText(out, capNote), nil
}

// outputHint sizes Read's output buffer from the file's size (its text plus about a quarter for
// the line numbers), so that a whole small file is formatted without the buffer growing by
// doubling, which allocated four times the file's size per call. Bounded by the output cap.
func outputHint(r io.Reader, maxOut int) int {
	st, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return 0
	}
	fi, err := st.Stat()
	if err != nil || fi.Size() <= 0 {
		return 0
	}
	return int(min(fi.Size()+fi.Size()/4+64, int64(maxOut)+64))
}

// finalText is the result of Read. The buffer is not touched after this, so the common case (no
// note) shares its bytes with the string instead of copying them once more.
func finalText(out []byte, note string) string {
	if note != "" {
		return string(out) + note
	}
	if len(out) == 0 {
		return ""
	}
	return unsafe.String(&out[0], len(out))
}

// readerPool keeps Read's 64 KiB line buffers between calls: allocating and clearing one per call
// was a measurable share of a small Read's latency through the proxy.
var readerPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// appendLine renders one numbered line onto dst: the number right-aligned in 6 columns, a tab,
// the text without its line ending, cut at search.MaxLineChars characters, invalid UTF-8 replaced.
func appendLine(dst []byte, n int, line []byte, total int) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	var num [20]byte
	digits := strconv.AppendInt(num[:0], int64(n), 10)
	for i := len(digits); i < 6; i++ {
		dst = append(dst, ' ')
	}
	dst = append(dst, digits...)
	dst = append(dst, '\t')
	// Fast path: valid UTF-8 no longer in bytes than the cut is in characters needs no work.
	if len(line) <= search.MaxLineChars && utf8.Valid(line) {
		dst = append(dst, line...)
	} else {
		text, cut := search.CutRunes(line, search.MaxLineChars)
		dst = append(dst, text...)
		if cut {
			dst = fmt.Appendf(dst, " … [line truncated: %d bytes, first %d characters shown]", total, search.MaxLineChars)
		}
	}
	return append(dst, '\n')
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
