package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on input values. A value becomes part of a shell command or a prompt, so a value no
// workflow needs is refused with a clear error before anything runs, rather than reaching the
// shell or the model as a surprise.
const (
	// MaxInputBytes caps the text of one input value (an array counts as its JSON text).
	MaxInputBytes = 1 << 20
	// MaxInputItems caps the items of an array input.
	MaxInputItems = 10_000
)

// InputList is the value of an array input. It prints as JSON (["a","b"]), the form the
// reference awf prints lists in, so {{.inputs.files}} can feed a for_each's items or jq; in
// expressions it is a list (len(inputs.files), "a" in inputs.files).
type InputList []any

// String renders the list as compact JSON without HTML escaping.
func (l InputList) String() string {
	if l == nil {
		l = InputList{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode([]any(l)); err != nil {
		return fmt.Sprint([]any(l))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// InputTypes are the types an input may declare, in the order messages list them.
var InputTypes = []InputType{InputString, InputInteger, InputNumber, InputBoolean, InputArray}

// KnownInputType reports whether t is a type awf knows; "" means string.
func KnownInputType(t InputType) bool {
	if t == "" {
		return true
	}
	for _, k := range InputTypes {
		if k == t {
			return true
		}
	}
	return false
}

// InputValueError is a value that does not fit its input's type; Hint says what would.
type InputValueError struct {
	Msg, Hint string
	// Mismatch is set when the value has the wrong kind altogether (a list for an integer).
	Mismatch bool
}

func (e *InputValueError) Error() string { return e.Msg }

func valueErr(hint, format string, args ...any) error {
	return &InputValueError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// ParseInputText turns the text of one `--input name=value` into a value of type t. Numbers and
// booleans may carry surrounding spaces; text is kept exactly as given. An array is a JSON list
// when it starts with `[`, otherwise comma-separated items, each trimmed; empty text is an empty
// list.
func ParseInputText(t InputType, text string) (any, error) {
	if err := checkText(text); err != nil {
		return nil, err
	}
	s := strings.TrimSpace(text)
	switch t {
	case InputInteger:
		n, err := strconv.ParseInt(s, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return nil, valueErr("use a whole number between -9223372036854775808 and 9223372036854775807", "%s is out of range for an integer", quoteValue(text))
		}
		if err != nil {
			return nil, valueErr("use a whole number such as 42", "%s is not a whole number", quoteValue(text))
		}
		return n, nil
	case InputNumber:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, valueErr("use a finite number such as 0.5 or 42", "%s is not a number", quoteValue(text))
		}
		return f, nil
	case InputBoolean:
		switch strings.ToLower(s) {
		case "true", "t", "yes", "1":
			return true, nil
		case "false", "f", "no", "0":
			return false, nil
		}
		return nil, valueErr("use true or false (yes/no and 1/0 are accepted too)", "%s is not a boolean", quoteValue(text))
	case InputArray:
		l, err := parseList(s)
		if err != nil {
			return nil, err
		}
		return l, nil
	}
	return text, nil
}

// parseList reads an array input's text: a JSON list, or comma-separated items.
func parseList(s string) (InputList, error) {
	if s == "" {
		return InputList{}, nil
	}
	if strings.HasPrefix(s, "[") {
		var items []any
		if err := json.Unmarshal([]byte(s), &items); err != nil {
			return nil, valueErr(`write a JSON list such as ["a","b"], or comma-separated items such as a,b`, "%s starts with [ but is not a JSON list: %v", quoteValue(s), err)
		}
		return checkItems(items)
	}
	parts := strings.Split(s, ",")
	items := make([]any, len(parts))
	for i, p := range parts {
		items[i] = strings.TrimSpace(p)
	}
	return checkItems(items)
}

func checkItems(items []any) (InputList, error) {
	if len(items) > MaxInputItems {
		return nil, valueErr(fmt.Sprintf("give at most %d items", MaxInputItems), "the list has %d items", len(items))
	}
	return InputList(items), nil
}

// checkText refuses what no input value may hold: NUL bytes (a shell argument or a C string
// ends there, so the command would see less than the user wrote), invalid UTF-8, and text
// beyond MaxInputBytes.
func checkText(s string) error {
	switch {
	case len(s) > MaxInputBytes:
		return valueErr(fmt.Sprintf("pass at most %d bytes; put large content in a file and pass its path", MaxInputBytes), "the value is %d bytes long", len(s))
	case strings.IndexByte(s, 0) >= 0:
		return valueErr("remove the NUL byte (\\x00): commands and prompts cannot carry it", "the value contains a NUL byte at byte %d", strings.IndexByte(s, 0))
	case !utf8.ValidString(s):
		return valueErr("pass UTF-8 text", "the value is not valid UTF-8")
	}
	return nil
}

// InputDefault turns a default as decoded from YAML into a value of type t: integers become
// int64, numbers float64, lists InputList. It fails when the default does not fit t.
func InputDefault(t InputType, v any) (any, error) {
	switch t {
	case InputInteger:
		switch n := v.(type) {
		case int:
			return int64(n), nil
		case int64:
			return n, nil
		}
	case InputNumber:
		switch n := v.(type) {
		case int:
			return float64(n), nil
		case int64:
			return float64(n), nil
		case float64:
			if !math.IsNaN(n) && !math.IsInf(n, 0) {
				return n, nil
			}
		}
	case InputBoolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case InputArray:
		switch l := v.(type) {
		case []any:
			if l, err := checkItems(l); err == nil {
				return l, nil
			}
			return nil, valueErr(fmt.Sprintf("give at most %d items", MaxInputItems), "the default list has %d items", len(l))
		case InputList:
			return l, nil
		}
	default:
		if s, ok := v.(string); ok {
			return s, checkText(s)
		}
	}
	return nil, &InputValueError{Msg: fmt.Sprintf("%s is not %s", describeValue(v), Article(t)), Hint: defaultHint(t), Mismatch: true}
}

// ZeroInput is the value an optional input without a default takes when not given.
func ZeroInput(t InputType) any {
	switch t {
	case InputInteger:
		return int64(0)
	case InputNumber:
		return float64(0)
	case InputBoolean:
		return false
	case InputArray:
		return InputList{}
	}
	return ""
}

// Article names a type with its article, as messages use it: "an integer", "a number".
func Article(t InputType) string {
	switch t {
	case InputInteger:
		return "an integer"
	case InputArray:
		return "an array"
	case "":
		return "a string"
	}
	return "a " + string(t)
}

// quoteValue shows a value in a message, shortened when long so a huge value cannot flood the
// terminal.
func quoteValue(s string) string {
	const max = 80
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return strconv.Quote(s)
}
