package run

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"text/template"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// textFuncs are the reference awf's template helpers. In shell templates their results are
// escaped like any other value (escape, like quote, already yields one safe word).
var textFuncs = template.FuncMap{
	"json":      jsonFunc,
	"split":     splitFunc,
	"join":      joinFunc,
	"trimSpace": strings.TrimSpace,
	"escape":    func(v any) string { return ShellQuote(fmt.Sprint(v)) },
}

// jsonFunc renders v as JSON.
func jsonFunc(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("json: %w", err)
	}
	return string(b), nil
}

// splitFunc splits s at sep and trims each part, as the reference does.
func splitFunc(s, sep string) []string {
	parts := strings.Split(s, sep)
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// joinFunc joins a list with sep. It takes what split returns and any other list a template
// holds (a JSON array from .states.x.JSON), printing each item as text.
func joinFunc(items any, sep string) (string, error) {
	switch v := items.(type) {
	case []string:
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

// readFileFunc is the readFile helper of a scope: the file's text through the run's bounded,
// confined reader, or an error naming the path.
func (s Scope) readFileFunc() func(path string) (string, error) {
	return func(path string) (string, error) {
		if s.host == nil || s.host.readFile == nil {
			return "", fault.New(fault.SystemRunSetup, "readFile %q: this awf has no file reader wired", path)
		}
		return s.host.readFile(path)
	}
}

// scopeFuncs are the functions bound to one render's scope: readFile. The helpers that need no
// scope are in Funcs already.
func scopeFuncs(s Scope) template.FuncMap {
	return template.FuncMap{"readFile": s.readFileFunc()}
}
