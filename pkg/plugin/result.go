package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Result is what an operation returns.
type Result struct {
	// Content blocks, in order.
	Content []Content
	// IsError marks a failure the model should read and react to (bad input, missing record).
	IsError bool
	// ErrorMessage, optional, is shown before the content when IsError is set.
	ErrorMessage string
}

// Content is one block of a result: Text, or JSON (a serialized JSON document). Exactly one is
// set.
type Content struct {
	Text string
	JSON json.RawMessage
}

// Text returns a successful result holding one text block.
func Text(s string) Result { return Result{Content: []Content{{Text: s}}} }

// JSON returns a successful result holding v serialized as one JSON block.
func JSON(v any) (Result, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Result{}, fmt.Errorf("cannot serialize the result as JSON: %w", err)
	}
	return Result{Content: []Content{{JSON: b}}}, nil
}

// Errorf returns an error result whose message tells the model what went wrong and what to do.
func Errorf(format string, args ...any) Result {
	return Result{IsError: true, ErrorMessage: fmt.Sprintf(format, args...)}
}

// DecodeArgs decodes a call's arguments into v strictly: a key v does not know is an error,
// so a schema and its handler cannot silently drift apart. Empty args decode as {}.
func DecodeArgs(args json.RawMessage, v any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("invalid arguments: data after the JSON object")
	}
	return nil
}
