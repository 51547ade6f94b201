package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
)

// jsonSchemaVersion is the version of the shape of the JSON documents awf prints
// (docs/reference/json-outputs.md, docs/reference/schemas): every document carries it as
// schema_version, each element of a list does, so a script can tell a shape it knows. It
// changes only when a field is removed or changes meaning; new fields keep it.
const jsonSchemaVersion = 1

// writeJSON prints v as an indented JSON document with its schema_version.
func writeJSON(w io.Writer, v any) error { return writeJSONDoc(w, v, true) }

// writeJSONDoc is writeJSON, with <, > and & left as they are when escapeHTML is false (a
// document never embedded in HTML, whose placeholders such as <states.x.output> stay readable).
func writeJSONDoc(w io.Writer, v any, escapeHTML bool) error {
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, withSchemaVersion(bytes.TrimSpace(raw.Bytes())), "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

// withSchemaVersion puts "schema_version" first in an encoded object, or in each object of an
// encoded list; anything else is returned as it is.
func withSchemaVersion(doc []byte) []byte {
	if len(doc) < 2 {
		return doc
	}
	switch doc[0] {
	case '{':
		head := []byte(`{"schema_version":` + strconv.Itoa(jsonSchemaVersion))
		if len(bytes.TrimSpace(doc[1:])) == 1 { // {}
			return append(head, '}')
		}
		return append(append(head, ','), doc[1:]...)
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(doc, &items) != nil {
			return doc
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for i, it := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(withSchemaVersion(bytes.TrimSpace(it)))
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	return doc
}
