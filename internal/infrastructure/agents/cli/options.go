package cli

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Kind is the type an option's value must have.
type Kind int

// Option kinds. Values come from YAML, so numbers may be int, int64 or float64.
const (
	KindString  Kind = iota // a string
	KindStrings             // a list of strings
	KindEnv                 // a mapping of variable names to scalars (numbers and booleans are written as text)
	KindNumber              // a number
	KindBool                // true or false
)

// Option declares one step option a provider understands.
type Option struct {
	Name    string
	Kind    Kind
	Choices []string // for KindString: the only values allowed, when set
	// Check, when set, vets a well-typed value and returns what is wrong with it ("" if nothing).
	Check func(v any) string
	// Example completes the hint of a type error: "write it as <Example>".
	Example string
}

// OptionError is one problem with one option. Key lets a caller point at the option's line
// ("options.<Key>" in the state's positions); Err carries the code, message and hint.
type OptionError struct {
	Key string
	Err *fault.Error
}

// Error makes an OptionError usable where an error is expected.
func (e OptionError) Error() string { return e.Err.Error() }

// Schema is the set of options one provider accepts.
type Schema struct {
	Provider string
	Options  []Option
	// Unsupported names common options this CLI cannot honour, with what to do instead.
	Unsupported map[string]string
}

// Common returns the options every CLI provider accepts: model, binary, extra_args, env, and
// system_prompt when the CLI has a way to take one.
func Common(systemPrompt bool) []Option {
	opts := []Option{
		{Name: "model", Kind: KindString, Check: nonEmpty, Example: "a model name, e.g. model: sonnet"},
		{Name: "binary", Kind: KindString, Check: nonEmpty, Example: "a path, e.g. binary: /usr/local/bin/claude"},
		{Name: "extra_args", Kind: KindStrings, Example: `a list, e.g. extra_args: ["--verbose"]`},
		{Name: "env", Kind: KindEnv, Example: "a mapping, e.g. env: {HTTPS_PROXY: http://proxy:3128}"},
	}
	if systemPrompt {
		opts = append(opts, Option{Name: "system_prompt", Kind: KindString, Example: "a string"})
	}
	return opts
}

func nonEmpty(v any) string {
	if s, _ := v.(string); strings.TrimSpace(s) == "" {
		return "must not be empty"
	}
	return ""
}

// Names lists the accepted option names in declaration order (did-you-mean prefers earlier).
func (s Schema) Names() []string {
	names := make([]string, 0, len(s.Options))
	for _, o := range s.Options {
		names = append(names, o.Name)
	}
	return names
}

// Validate reports every unknown, unsupported or ill-typed option, sorted by key.
func (s Schema) Validate(opts map[string]any) []OptionError {
	_, errs := s.parse(opts)
	return errs
}

// Parse checks the options and returns them normalised: strings, []string, map[string]string,
// float64 and bool. The error is the first problem (Run cannot start with any of them).
func (s Schema) Parse(opts map[string]any) (Values, error) {
	v, errs := s.parse(opts)
	if len(errs) > 0 {
		return nil, errs[0].Err
	}
	return v, nil
}

func (s Schema) parse(opts map[string]any) (Values, []OptionError) {
	byName := make(map[string]Option, len(s.Options))
	for _, o := range s.Options {
		byName[o.Name] = o
	}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := Values{}
	var errs []OptionError
	for _, key := range keys {
		raw := opts[key]
		o, known := byName[key]
		if !known {
			if why, ok := s.Unsupported[key]; ok {
				errs = append(errs, OptionError{Key: key, Err: fault.New(fault.UserAgentUnsupportedOption,
					"option %s is not supported by provider %s", key, s.Provider).WithHint("%s", why)})
				continue
			}
			errs = append(errs, OptionError{Key: key, Err: fault.New(fault.UserAgentUnknownOption,
				"unknown option %q for provider %s", key, s.Provider).WithHint("%s", workflow.DidYouMean(key, s.Names()))})
			continue
		}
		v, problem := normalise(o, raw)
		if problem == "" && o.Check != nil {
			problem = o.Check(v)
		}
		if problem != "" {
			hint := "write it as " + o.Example
			if o.Example == "" {
				hint = "see the provider's documentation for the accepted values"
			}
			errs = append(errs, OptionError{Key: key, Err: fault.New(fault.UserAgentInvalidOption,
				"option %s of provider %s %s", key, s.Provider, problem).WithHint("%s", hint)})
			continue
		}
		vals[key] = v
	}
	return vals, errs
}

// normalise converts a YAML value to the option's Go type, or says why it cannot.
func normalise(o Option, raw any) (any, string) {
	switch o.Kind {
	case KindString:
		s, ok := raw.(string)
		if !ok {
			return nil, "must be a string, got " + describe(raw)
		}
		if len(o.Choices) > 0 && !contains(o.Choices, s) {
			hint := workflow.DidYouMean(s, o.Choices)
			return nil, fmt.Sprintf("must be one of %s, got %q (%s)", strings.Join(o.Choices, ", "), s, hint)
		}
		return s, ""
	case KindStrings:
		list, ok := raw.([]any)
		if !ok {
			if ss, ok := raw.([]string); ok {
				return append([]string(nil), ss...), ""
			}
			return nil, "must be a list of strings, got " + describe(raw)
		}
		out := make([]string, 0, len(list))
		for i, item := range list {
			s, ok := item.(string)
			if !ok {
				return nil, fmt.Sprintf("must be a list of strings, item %d is %s", i, describe(item))
			}
			out = append(out, s)
		}
		return out, ""
	case KindEnv:
		return normaliseEnv(raw)
	case KindNumber:
		f, ok := number(raw)
		if !ok {
			return nil, "must be a number, got " + describe(raw)
		}
		return f, ""
	case KindBool:
		b, ok := raw.(bool)
		if !ok {
			return nil, "must be true or false, got " + describe(raw)
		}
		return b, ""
	}
	return nil, "has a kind awf does not know"
}

func normaliseEnv(raw any) (any, string) {
	var m map[string]any
	switch t := raw.(type) {
	case map[string]any:
		m = t
	case map[string]string:
		out := make(map[string]string, len(t))
		for k, v := range t {
			if !validEnvName(k) {
				return nil, fmt.Sprintf("has %q, which is not a valid environment variable name", k)
			}
			out[k] = v
		}
		return out, ""
	default:
		return nil, "must be a mapping of variable names to values, got " + describe(raw)
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if !validEnvName(k) {
			return nil, fmt.Sprintf("has %q, which is not a valid environment variable name", k)
		}
		s, ok := scalarText(v)
		if !ok {
			return nil, fmt.Sprintf("sets %s to %s; values must be strings, numbers or booleans", k, describe(v))
		}
		out[k] = s
	}
	return out, ""
}

// validEnvName accepts what a shell accepts: letters, digits and _, not starting with a digit.
func validEnvName(s string) bool {
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

func describe(v any) string {
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Values are a step's options after Parse: each present key holds its normalised value.
type Values map[string]any

// String returns a string option, or "" when absent.
func (v Values) String(key string) string { s, _ := v[key].(string); return s }

// Strings returns a list option, or nil when absent.
func (v Values) Strings(key string) []string { l, _ := v[key].([]string); return l }

// Env returns a mapping option, or nil when absent.
func (v Values) Env(key string) map[string]string { m, _ := v[key].(map[string]string); return m }

// Number returns a number option and whether it was set.
func (v Values) Number(key string) (float64, bool) { f, ok := v[key].(float64); return f, ok }

// Bool returns a boolean option and whether it was set.
func (v Values) Bool(key string) (bool, bool) { b, ok := v[key].(bool); return b, ok }

// Has reports whether the option was set.
func (v Values) Has(key string) bool { _, ok := v[key]; return ok }
