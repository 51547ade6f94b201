package options

import (
	"sort"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
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
	// Example completes the hint of a problem: "write it as <Example>".
	Example string
	// Hint, when set, is the whole hint instead ("use a number between 0 and 2, e.g. 0.2").
	Hint string
}

// hint is what a problem with the option tells the user to do.
func (o Option) hint() string {
	switch {
	case o.Hint != "":
		return o.Hint
	case o.Example != "":
		return "write it as " + o.Example
	}
	return "see the provider's documentation for the accepted values"
}

// Need says that an option means something only beside another one.
type Need struct {
	Option string // the option that needs another
	Needs  string // the option it needs
	Why    string // completes "option <Option> of provider P needs <Needs>: <Why>"
	Hint   string
}

// Problem is one problem with one option. Key lets a caller point at the option's line
// ("options.<Key>" in the state's positions); Err carries the code, message and hint.
type Problem struct {
	Key string
	Err *fault.Error
}

// Error makes a Problem usable where an error is expected.
func (p Problem) Error() string { return p.Err.Error() }

// Schema is the set of options one provider accepts.
type Schema struct {
	Provider string
	Options  []Option
	// Unsupported names options this provider cannot honour, with what to do instead.
	Unsupported map[string]string
	// Needs are the options that require another; they are checked after every option's own
	// problems.
	Needs []Need
}

// Names lists the accepted option names in declaration order (did-you-mean prefers earlier).
func (s Schema) Names() []string {
	names := make([]string, 0, len(s.Options))
	for _, o := range s.Options {
		names = append(names, o.Name)
	}
	return names
}

// Validate reports every unknown, unsupported or ill-typed option, sorted by key, then every
// unmet Need.
func (s Schema) Validate(opts map[string]any) []Problem {
	_, errs := s.parse(opts)
	return errs
}

// Parse checks the options and returns them normalised: strings, []string, map[string]string,
// float64 and bool. The error is the first problem (a step cannot start with any of them).
func (s Schema) Parse(opts map[string]any) (Values, error) {
	v, errs := s.parse(opts)
	if len(errs) > 0 {
		return nil, errs[0].Err
	}
	return v, nil
}

func (s Schema) parse(opts map[string]any) (Values, []Problem) {
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
	var errs []Problem
	for _, key := range keys {
		o, known := byName[key]
		if !known {
			errs = append(errs, s.unknown(key))
			continue
		}
		v, problem := normalise(o, opts[key])
		if problem == "" && o.Check != nil {
			problem = o.Check(v)
		}
		if problem != "" {
			errs = append(errs, Problem{Key: key, Err: fault.New(fault.UserAgentInvalidOption,
				"option %s of provider %s %s", key, s.Provider, problem).WithHint("%s", o.hint())})
			continue
		}
		vals[key] = v
	}
	for _, n := range s.Needs {
		_, has := opts[n.Option]
		_, needed := opts[n.Needs]
		if has && !needed {
			errs = append(errs, Problem{Key: n.Option, Err: fault.New(fault.UserAgentInvalidOption,
				"option %s of provider %s needs %s: %s", n.Option, s.Provider, n.Needs, n.Why).WithHint("%s", n.Hint)})
		}
	}
	return vals, errs
}

// unknown is the problem of a key the schema does not declare.
func (s Schema) unknown(key string) Problem {
	if why, ok := s.Unsupported[key]; ok {
		return Problem{Key: key, Err: fault.New(fault.UserAgentUnsupportedOption,
			"option %s is not supported by provider %s", key, s.Provider).WithHint("%s", why)}
	}
	return Problem{Key: key, Err: fault.New(fault.UserAgentUnknownOption,
		"unknown option %q for provider %s", key, s.Provider).WithHint("%s", suggest.DidYouMean(key, s.Names()))}
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
