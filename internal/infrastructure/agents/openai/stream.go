package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxLineBytes bounds one SSE line (one event's JSON). Real chunks are a few hundred bytes.
const maxLineBytes = 8 << 20

// maxEventBytes bounds one event: the data: lines it accumulates until a blank line. A server
// that sends data: lines and never a blank line (a hostile or broken endpoint) would otherwise
// grow the event without limit; the probe in docs/decisions/0011-values-are-data-secrets-are-masked.md reached 2.46 GB.
const maxEventBytes = 8 << 20

// maxUnframedCheck is the largest pending event of several lines checked for being complete
// JSON on every data: line. Servers that leave out blank lines send one JSON value per line,
// which is always checked (once); past this size only a blank line ends a multi-line event, so
// a stream of short lines costs linear time, not quadratic.
const maxUnframedCheck = 4 << 10

// eventTooLargeError is an event over maxEventBytes.
type eventTooLargeError struct{ line int }

func (e *eventTooLargeError) Error() string {
	return fmt.Sprintf("line %d: one server-sent event's data: lines add up to more than %d MiB without a blank line ending the event", e.line, maxEventBytes>>20)
}

// errIncomplete marks a stream that ended before the model finished.
var errIncomplete = errors.New("incomplete answer")

// malformedError is a stream or body that is not the chat-completions format.
type malformedError struct {
	line   int
	detail string
}

func (e *malformedError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("line %d: %s", e.line, e.detail)
	}
	return e.detail
}

// serverError is an error object the server put in the stream or in a 200 body.
type serverError struct{ msg string }

func (e *serverError) Error() string { return e.msg }

// readAnswer reads a whole answer into a Turn. isStream selects SSE parsing; a body that is not
// what its Content-Type says is sniffed, because some servers label SSE as text/plain or answer
// a streaming request with a plain JSON completion.
func readAnswer(body io.Reader, contentType string) (Turn, error) {
	br := bufio.NewReaderSize(body, 16<<10)
	mode := contentMode(contentType)
	if mode == "" {
		head, _ := br.Peek(512)
		mode = sniff(head)
	}
	a := NewAssembler()
	if mode == "json" {
		return readJSON(br, a)
	}
	return readSSE(br, a)
}

func contentMode(contentType string) string {
	ct := strings.ToLower(contentType)
	switch {
	case strings.Contains(ct, "text/event-stream"):
		return "sse"
	case strings.Contains(ct, "json"):
		return "json"
	}
	return ""
}

func sniff(head []byte) string {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) > 0 && t[0] == '{' {
		return "json"
	}
	return "sse"
}

// readJSON reads a non-streaming chat.completion answer.
func readJSON(r io.Reader, a *Assembler) (Turn, error) {
	body, err := io.ReadAll(io.LimitReader(r, maxTurnBytes+1))
	if err != nil {
		return Turn{}, err
	}
	if len(body) > maxTurnBytes {
		return Turn{}, &malformedError{detail: fmt.Sprintf("the answer is larger than %d MiB", maxTurnBytes>>20)}
	}
	var c chunk
	if err := json.Unmarshal(body, &c); err != nil {
		return Turn{}, &malformedError{detail: fmt.Sprintf("the answer is not a chat completion (%v): %s", err, excerpt(body))}
	}
	if c.Error != nil {
		return Turn{}, &serverError{msg: c.Error.describe()}
	}
	if len(c.Choices) == 0 {
		return Turn{}, &malformedError{detail: "the answer has no choices: " + excerpt(body)}
	}
	if err := a.add(&c); err != nil {
		return Turn{}, &malformedError{detail: err.Error()}
	}
	return a.Turn(), nil
}

// readSSE reads a server-sent-events stream of chat.completion.chunk objects until [DONE] or the
// end of the body. Events are dispatched on a blank line as the SSE spec says; a data line that
// follows a complete JSON value also dispatches it, for servers that leave out blank lines.
// Comment lines (":") and other fields (event:, id:, retry:) are ignored.
func readSSE(r *bufio.Reader, a *Assembler) (Turn, error) {
	var (
		pending   []byte
		have      bool
		lineNo    int
		eventLine int
		lines     int // data: lines in the pending event
		done      bool
	)
	dispatch := func() error {
		if !have {
			return nil
		}
		data := bytes.TrimSpace(pending)
		pending, have, lines = pending[:0], false, 0
		if string(data) == "[DONE]" {
			done = true
			return nil
		}
		if len(data) == 0 {
			return nil
		}
		var c chunk
		if err := json.Unmarshal(data, &c); err != nil {
			return &malformedError{line: eventLine, detail: fmt.Sprintf("the stream event is not JSON (%v): %s", err, excerpt(data))}
		}
		if c.Error != nil {
			return &serverError{msg: c.Error.describe()}
		}
		if err := a.add(&c); err != nil {
			return &malformedError{line: eventLine, detail: err.Error()}
		}
		return nil
	}
	for !done {
		line, err := readLine(r)
		if len(line) > 0 || err == nil {
			lineNo++
		}
		if errors.Is(err, errLineTooLong) {
			return Turn{}, &malformedError{line: lineNo, detail: fmt.Sprintf("a stream line is longer than %d MiB", maxLineBytes>>20)}
		}
		switch {
		case len(line) == 0 && err == nil:
			if derr := dispatch(); derr != nil {
				return Turn{}, derr
			}
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(line[len("data:"):], []byte(" "))
			if have && (lines == 1 || len(pending) <= maxUnframedCheck) && json.Valid(bytes.TrimSpace(pending)) {
				if derr := dispatch(); derr != nil {
					return Turn{}, derr
				}
			}
			if len(pending)+len(v)+1 > maxEventBytes {
				return Turn{}, &eventTooLargeError{line: lineNo}
			}
			if !have {
				eventLine = lineNo
			} else {
				pending = append(pending, '\n')
			}
			pending, have = append(pending, v...), true
			lines++
		case len(line) > 0 && line[0] == ':':
		case len(line) > 0 && isSSEField(line):
		case len(line) > 0:
			return Turn{}, &malformedError{line: lineNo, detail: "expected a server-sent event (\"data: {...}\"), got: " + excerpt(line)}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return Turn{}, err
			}
			if derr := dispatch(); derr != nil {
				return Turn{}, derr
			}
			break
		}
	}
	if !done && !a.Finished() {
		return Turn{}, fmt.Errorf("%w: the stream ended before the model finished (no finish_reason and no [DONE])", errIncomplete)
	}
	return a.Turn(), nil
}

var errLineTooLong = errors.New("line too long")

// readLine returns one line without its line ending (\n, \r\n). At the end of the body it
// returns the last partial line with io.EOF.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxLineBytes {
			return nil, errLineTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, err
	}
}

// isSSEField reports the SSE fields awf ignores.
func isSSEField(line []byte) bool {
	for _, f := range []string{"event:", "id:", "retry:", "event", "id", "retry"} {
		if bytes.HasPrefix(line, []byte(f)) && (len(line) == len(f) || strings.HasSuffix(f, ":")) {
			return true
		}
	}
	return false
}

// excerpt shows the start of a bad payload in an error, on one line.
func excerpt(b []byte) string {
	const n = 120
	s := strings.ToValidUTF8(string(b), "?")
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	if s == "" {
		return "(empty)"
	}
	return "`" + s + "`"
}
