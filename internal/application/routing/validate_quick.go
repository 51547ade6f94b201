package routing

import (
	"reflect"
	"regexp"
	"slices"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// quickSchema checks, without the general validator, the arguments of a schema made only of
// the keywords tool schemas use in practice: an object with typed properties (minimum, maximum,
// minLength, maxLength, pattern, a string enum), required names and additionalProperties false.
// It is built once per schema; a schema using any other keyword gets none. It only ever says
// "valid": arguments it does not accept go to the general validator, which decides and
// explains, so every verdict is the validator's own (TestQuickSchemaAgreesWithTheValidator).
type quickSchema struct {
	props    map[string]*quickProp
	required []string
	closed   bool // additionalProperties: false
}

// quickProp is one property's checks; the zero value accepts anything.
type quickProp struct {
	typ            string
	min, max       *float64
	minLen, maxLen *int
	pattern        *regexp.Regexp
	enum           []string // nil: no enum
}

// newQuickSchema returns the quick form of s, or nil when s uses a keyword it does not handle.
func newQuickSchema(s *jsonschema.Schema) *quickSchema {
	top := *s
	if top.Type != "object" || top.AdditionalProperties != nil && !isFalseSchema(top.AdditionalProperties) {
		return nil
	}
	q := &quickSchema{props: make(map[string]*quickProp, len(top.Properties)), required: top.Required, closed: top.AdditionalProperties != nil}
	for name, ps := range top.Properties {
		p := newQuickProp(ps)
		if p == nil {
			return nil
		}
		q.props[name] = p
	}
	top.Schema, top.Type, top.Title, top.Description, top.Comment = "", "", "", "", ""
	top.Properties, top.Required, top.AdditionalProperties, top.PropertyOrder = nil, nil, nil, nil
	if !reflect.ValueOf(top).IsZero() {
		return nil
	}
	return q
}

func newQuickProp(s *jsonschema.Schema) *quickProp {
	if s == nil {
		return nil
	}
	c := *s
	p := &quickProp{typ: c.Type, min: c.Minimum, max: c.Maximum, minLen: c.MinLength, maxLen: c.MaxLength}
	if c.Pattern != "" {
		re, err := regexp.Compile(c.Pattern)
		if err != nil {
			return nil
		}
		p.pattern = re
	}
	if c.Enum != nil {
		p.enum = make([]string, 0, len(c.Enum))
		for _, e := range c.Enum {
			str, ok := e.(string)
			if !ok {
				return nil
			}
			p.enum = append(p.enum, str)
		}
	}
	c.Type, c.Title, c.Description, c.Comment, c.Default, c.Examples = "", "", "", "", nil, nil
	c.Deprecated, c.ReadOnly, c.WriteOnly = false, false, false
	c.Minimum, c.Maximum, c.MinLength, c.MaxLength, c.Pattern, c.Enum, c.PropertyOrder = nil, nil, nil, nil, "", nil, nil
	if !reflect.ValueOf(c).IsZero() {
		return nil
	}
	return p
}

// accepts reports whether args certainly satisfy the schema.
func (q *quickSchema) accepts(args map[string]any) bool {
	for _, r := range q.required {
		if _, ok := args[r]; !ok {
			return false
		}
	}
	for k, v := range args {
		p, ok := q.props[k]
		if !ok {
			if q.closed {
				return false
			}
			continue
		}
		if !p.accepts(v) {
			return false
		}
	}
	return true
}

func (p *quickProp) accepts(v any) bool {
	if p.typ != "" {
		got := jsonTypeOf(v)
		if got != p.typ && !(got == "integer" && p.typ == "number") {
			return false
		}
	}
	switch val := v.(type) {
	case float64:
		return (p.min == nil || val >= *p.min) && (p.max == nil || val <= *p.max) && p.enum == nil
	case string:
		if p.minLen != nil || p.maxLen != nil {
			n := utf8.RuneCountInString(val)
			if p.minLen != nil && n < *p.minLen || p.maxLen != nil && n > *p.maxLen {
				return false
			}
		}
		return (p.pattern == nil || p.pattern.MatchString(val)) && (p.enum == nil || slices.Contains(p.enum, val))
	default:
		return p.enum == nil
	}
}
