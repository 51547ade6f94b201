package options

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/awf-dev/awf/internal/domain/suggest"
)

// normalise converts a YAML value to the option's Go type, or says why it cannot.
func normalise(o Option, raw any) (any, string) {
	switch o.Kind {
	case KindString:
		s, ok := raw.(string)
		if !ok {
			return nil, "must be a string, got " + Describe(raw)
		}
		if len(o.Choices) > 0 && !slices.Contains(o.Choices, s) {
			hint := suggest.DidYouMean(s, o.Choices)
			return nil, fmt.Sprintf("must be one of %s, got %q (%s)", strings.Join(o.Choices, ", "), s, hint)
		}
		return s, ""
	case KindStrings:
		return normaliseList(raw)
	case KindEnv:
		return normaliseEnv(raw)
	case KindNumber:
		f, ok := number(raw)
		if !ok {
			return nil, "must be a number, got " + Describe(raw)
		}
		return f, ""
	case KindBool:
		b, ok := raw.(bool)
		if !ok {
			return nil, "must be true or false, got " + Describe(raw)
		}
		return b, ""
	}
	return nil, "has a kind awf does not know"
}

func normaliseList(raw any) (any, string) {
	list, ok := raw.([]any)
	if !ok {
		if ss, ok := raw.([]string); ok {
			return append([]string(nil), ss...), ""
		}
		return nil, "must be a list of strings, got " + Describe(raw)
	}
	out := make([]string, 0, len(list))
	for i, item := range list {
		s, ok := item.(string)
		if !ok {
			return nil, fmt.Sprintf("must be a list of strings, item %d is %s", i, Describe(item))
		}
		out = append(out, s)
	}
	return out, ""
}

func normaliseEnv(raw any) (any, string) {
	var m map[string]any
	switch t := raw.(type) {
	case map[string]any:
		m = t
	case map[string]string:
		m = make(map[string]any, len(t))
		for k, v := range t {
			m[k] = v
		}
	default:
		return nil, "must be a mapping of variable names to values, got " + Describe(raw)
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if !ValidEnvName(k) {
			return nil, fmt.Sprintf("has %q, which is not a valid environment variable name", k)
		}
		s, ok := scalarText(v)
		if !ok {
			return nil, fmt.Sprintf("sets %s to %s; values must be strings, numbers or booleans", k, Describe(v))
		}
		out[k] = s
	}
	return out, ""
}

// ValidEnvName accepts what a shell accepts: letters, digits and _, not starting with a digit.
func ValidEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func scalarText(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	case int:
		return strconv.Itoa(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	}
	return "", false
}

func number(v any) (float64, bool) {
	switch t := v.(type) {
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	case float64:
		return t, !math.IsNaN(t) && !math.IsInf(t, 0)
	}
	return 0, false
}

// Describe names a YAML value in a message: its type, and its value when that is a scalar.
func Describe(v any) string {
	switch t := v.(type) {
	case nil:
		return "nothing (null)"
	case string:
		return fmt.Sprintf("the string %q", t)
	case bool:
		return fmt.Sprintf("the boolean %v", t)
	case int, int64, float64:
		return fmt.Sprintf("the number %v", t)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("a %T", v)
}
