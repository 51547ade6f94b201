package builtins

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// argError is an argument problem reported to the model as an IsError result. It always names
// the offending argument so the model can fix that one field.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func argErrorf(format string, a ...any) error { return &argError{msg: fmt.Sprintf(format, a...)} }

// decodeArgs decodes a tool's JSON arguments into dst, a pointer to a struct whose fields carry
// `json:"name"` tags. It is stricter than encoding/json on purpose (docs/design.md#pitfalls: a string timeout
// once meant no timeout): the arguments must be one JSON object; every key must be a declared
// name, spelled exactly (encoding/json would accept "FILE_PATH"); each required name must be
// present and not null; every value must have the declared type (an integer must be a whole
// number; a boolean is true/false, not "true"). null for an optional argument means "not given".
func decodeArgs(raw json.RawMessage, dst any, required ...string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return argErrorf("arguments must be a JSON object, got %s", jsonKind(raw))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return argErrorf("arguments are not a valid JSON object: %v", err)
	}
	fields := fieldsOf(reflect.TypeOf(dst).Elem())
	target := reflect.ValueOf(dst).Elem()
	for key := range obj {
		if _, ok := fields.index[key]; !ok {
			return argErrorf("unknown argument %q; valid arguments are: %s", key, strings.Join(fields.names, ", "))
		}
	}
	for _, name := range required {
		v, ok := obj[name]
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return argErrorf("missing required argument %q", name)
		}
	}
	// Decode in a stable order so that, with several bad fields, the message is reproducible.
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		val := bytes.TrimSpace(obj[key])
		if bytes.Equal(val, []byte("null")) {
			continue
		}
		if err := setField(target.Field(fields.index[key]), key, val); err != nil {
			return err
		}
	}
	return nil
}

// setField decodes one JSON value into a string, bool or int field (or a pointer to one).
func setField(f reflect.Value, name string, val []byte) error {
	if f.Kind() == reflect.Pointer {
		f.Set(reflect.New(f.Type().Elem()))
		f = f.Elem()
	}
	switch f.Kind() {
	case reflect.String:
		var s string
		if val[0] != '"' || json.Unmarshal(val, &s) != nil {
			return argErrorf("argument %q must be a string, got %s", name, jsonKind(val))
		}
		f.SetString(s)
	case reflect.Bool:
		switch string(val) {
		case "true":
			f.SetBool(true)
		case "false":
			f.SetBool(false)
		default:
			return argErrorf("argument %q must be a boolean (true or false), got %s", name, jsonKind(val))
		}
	case reflect.Int:
		n, err := parseJSONInt(val)
		if err != nil {
			return argErrorf("argument %q must be an integer, got %s", name, jsonKindOrValue(val))
		}
		f.SetInt(n)
	default:
		return argErrorf("argument %q has an unsupported type (bug)", name)
	}
	return nil
}

// parseJSONInt accepts a JSON number with no fractional part (1000, 1000.0, 1e3) in the range
// where float64 is exact, so a whole number a model wrote as a float still works.
func parseJSONInt(val []byte) (int64, error) {
	if len(val) == 0 || (val[0] != '-' && (val[0] < '0' || val[0] > '9')) {
		return 0, fmt.Errorf("not a number")
	}
	if n, err := strconv.ParseInt(string(val), 10, 64); err == nil {
		if n > 1<<53 || n < -(1<<53) {
			return 0, fmt.Errorf("out of range")
		}
		return n, nil
	}
	fl, err := strconv.ParseFloat(string(val), 64)
	if err != nil || fl != math.Trunc(fl) || math.Abs(fl) > 1<<53 {
		return 0, fmt.Errorf("not an integer")
	}
	return int64(fl), nil
}

// jsonKind names the JSON type of a value for error messages.
func jsonKind(val []byte) string {
	if len(val) == 0 {
		return "nothing"
	}
	switch val[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// jsonKindOrValue is jsonKind, but shows a number itself (1.5 is clearer than "a number").
func jsonKindOrValue(val []byte) string {
	if k := jsonKind(val); k != "a number" {
		return k
	}
	if len(val) > 40 {
		val = val[:40]
	}
	return string(val)
}

// structFields lists the JSON names of a struct's fields.
type structFields struct {
	index map[string]int
	names []string
}

var fieldCache sync.Map // reflect.Type → *structFields

func fieldsOf(t reflect.Type) *structFields {
	if v, ok := fieldCache.Load(t); ok {
		return v.(*structFields)
	}
	sf := &structFields{index: map[string]int{}}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" {
			continue
		}
		sf.index[name] = i
		sf.names = append(sf.names, name)
	}
	fieldCache.Store(t, sf)
	return sf
}
