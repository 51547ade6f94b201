// Package tmplfuncs holds the template helpers a workflow's text may call beyond text/template's
// own (json, split, join, trimSpace, escape, quote, lines), as the reference awf offers them: plain
// functions of their arguments, apart from the engine that binds them to a run's scope.
package tmplfuncs

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"text/template"
)

// Text are the reference awf's template helpers. In shell templates their results are
// escaped like any other value (escape, like quote, already yields one safe word).
var Text = template.FuncMap{
	"json":      JSONFunc,
	"split":     SplitFunc,
	"join":      JoinFunc,
	"trimSpace": strings.TrimSpace,
	"escape":    func(v any) string { return ShellQuote(fmt.Sprint(v)) },
	"lines":     LinesFunc,
}

// Lines is a list of text lines. It prints as a JSON list, so `items: '{{lines …}}'` gives a
// for_each the list it reads, and range and join take it as any list.
type Lines []string

// String prints the lines as a JSON list, with <, > and & as they are (they are file names
// and text, not HTML).
func (l Lines) String() string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode([]string(l)); err != nil { // a []string always encodes
		return "[]"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// LinesFunc splits newline-separated text (a command's output) into its lines, dropping empty
// ones (a trailing newline, blank lines) and a carriage return before each newline, so one
// item per line reaches a for_each however the text ended.
func LinesFunc(v any) Lines {
	out := Lines{}
	for line := range strings.SplitSeq(fmt.Sprint(v), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

// JSONFunc renders v as JSON.
func JSONFunc(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("json: %w", err)
	}
	return string(b), nil
}

// SplitFunc splits s at sep and trims each part, as the reference does.
func SplitFunc(s, sep string) []string {
	parts := strings.Split(s, sep)
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// JoinFunc joins a list with sep. It takes what split returns and any other list a template
// holds (a JSON array from .states.x.JSON), printing each item as text.
func JoinFunc(items any, sep string) (string, error) {
	switch v := items.(type) {
	case []string:
		return strings.Join(v, sep), nil
	case Lines:
		return strings.Join(v, sep), nil
	case []any:
		out := make([]string, len(v))
		for i, x := range v {
			out[i] = fmt.Sprint(x)
		}
		return strings.Join(out, sep), nil
	case string:
		return v, nil
	}
	// Any other list: an array input (workflow.InputList), a loop's items.
	if rv := reflect.ValueOf(items); rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		out := make([]string, rv.Len())
		for i := range out {
			out[i] = fmt.Sprint(rv.Index(i).Interface())
		}
		return strings.Join(out, sep), nil
	}
	return "", fmt.Errorf("join: want a list, got %T", items)
}

// ShellQuote returns s single-quoted for POSIX shells.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
