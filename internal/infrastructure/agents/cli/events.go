package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
)

// EachEvent reads stdout as a JSON Lines event stream (codex's `exec --json`, opencode's
// `run --format json`): each line that decodes as an object into a fresh E whose typeOf is not
// empty is handed to fn, in order, and counted. Other lines (blank, log text, JSON of another
// shape) are skipped: the stream is meant to be pure JSONL, and one stray line should not lose a
// finished answer. It returns how many events fn saw and an error only when a line could not be
// read.
func EachEvent[E any](stdout []byte, typeOf func(*E) string, fn func(*E)) (int, error) {
	var events int
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 64<<10), len(stdout)+1)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var ev E
		if json.Unmarshal(line, &ev) != nil || typeOf(&ev) == "" {
			continue
		}
		events++
		fn(&ev)
	}
	if err := sc.Err(); err != nil {
		return events, fmt.Errorf("reading the event stream: %w", err)
	}
	return events, nil
}
