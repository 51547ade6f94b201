package routing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// emptyArgs is what a call without arguments is dispatched with.
var emptyArgs = json.RawMessage(`{}`)

// parseArgs decodes a call's arguments. Empty input and JSON null mean "no arguments" ({}),
// because models send both; anything else must be a JSON object. It returns the raw arguments to
// dispatch and the decoded object for validation, the policy and the record.
func parseArgs(raw json.RawMessage) (json.RawMessage, map[string]any, string) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return emptyArgs, map[string]any{}, ""
	}
	var v any
	if err := json.Unmarshal(trimmed, &v); err != nil {
		return nil, nil, fmt.Sprintf("arguments are not valid JSON (%v); send a JSON object", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, nil, fmt.Sprintf("arguments must be a JSON object, got %s", jsonTypeOf(v))
	}
	return trimmed, obj, ""
}

// validateArgs checks args against the tool's compiled schema. The validator decides; explain
// then walks the schema to name the offending field in words a model can act on, falling back
// to the validator's own message for keywords it does not explain (oneOf, not, …).
func validateArgs(rs *jsonschema.Resolved, args map[string]any) string {
	err := rs.Validate(args)
	if err == nil {
		return ""
	}
	x := explainer{root: rs.Schema()}
	if msg := x.check(rs.Schema(), args, ""); msg != "" {
		return msg
	}
	return cleanValidatorError(err.Error())
}

// maxExplainDepth bounds the walk over recursive schemas ($ref cycles).
const maxExplainDepth = 64

// explainer finds the first violation of the common keywords and describes it with the path of
// the offending field (edits[1].old_string).
type explainer struct {
	root  *jsonschema.Schema
	depth int
}

func (x *explainer) check(s *jsonschema.Schema, v any, path string) string {
	if s == nil || x.depth > maxExplainDepth {
		return ""
	}
	x.depth++
	defer func() { x.depth-- }()

	if s.Ref != "" {
		if msg := x.check(x.lookupRef(s.Ref), v, path); msg != "" {
			return msg
		}
	}
	if msg := checkType(s, v, path); msg != "" {
		return msg
	}
	if msg := checkValue(s, v, path); msg != "" {
		return msg
	}
	for _, sub := range s.AllOf {
		if msg := x.check(sub, v, path); msg != "" {
			return msg
		}
	}
	if msg := x.checkAlternatives(s.AnyOf, v, path); msg != "" {
		return msg
	}
	if msg := x.checkAlternatives(s.OneOf, v, path); msg != "" {
		return msg
	}
	switch val := v.(type) {
	case map[string]any:
		return x.checkObject(s, val, path)
	case []any:
		return x.checkArray(s, val, path)
	}
	return ""
}

// checkAlternatives explains an anyOf/oneOf that no branch accepts: "expected string or
// integer, got boolean" when the branches differ by type, else every branch's reason. A oneOf
// that several branches accept is left to the validator's message.
func (x *explainer) checkAlternatives(alts []*jsonschema.Schema, v any, path string) string {
	if len(alts) == 0 {
		return ""
	}
	reasons := make([]string, 0, len(alts))
	var types []string
	typeOnly := true
	for _, alt := range alts {
		msg := x.check(alt, v, path)
		if msg == "" {
			return ""
		}
		reasons = append(reasons, strings.TrimPrefix(msg, fieldName(path)+": "))
		if t := checkType(alt, v, path); t == "" {
			typeOnly = false
		} else {
			types = append(types, alt.Types...)
			if alt.Type != "" {
				types = append(types, alt.Type)
			}
		}
	}
	if typeOnly {
		return fmt.Sprintf("%s: expected %s, got %s", fieldName(path), strings.Join(types, " or "), jsonTypeOf(v))
	}
	return fmt.Sprintf("%s: matches none of the allowed forms: %s", fieldName(path), strings.Join(reasons, "; or "))
}

// lookupRef resolves the local references schemas use in practice (#/$defs/X, #/definitions/X).
func (x *explainer) lookupRef(ref string) *jsonschema.Schema {
	if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
		return x.root.Defs[unescapePointer(name)]
	}
	if name, ok := strings.CutPrefix(ref, "#/definitions/"); ok {
		return x.root.Definitions[unescapePointer(name)]
	}
	if ref == "#" {
		return x.root
	}
	return nil
}

func checkType(s *jsonschema.Schema, v any, path string) string {
	want := s.Types
	if s.Type != "" {
		want = []string{s.Type}
	}
	if len(want) == 0 {
		return ""
	}
	got := jsonTypeOf(v)
	for _, w := range want {
		if w == got || (w == "number" && got == "integer") {
			return ""
		}
	}
	return fmt.Sprintf("%s: expected %s, got %s", fieldName(path), strings.Join(want, " or "), got)
}

func checkValue(s *jsonschema.Schema, v any, path string) string {
	field := fieldName(path)
	if s.Enum != nil && !slices.ContainsFunc(s.Enum, func(e any) bool { return reflect.DeepEqual(e, v) }) {
		opts := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			opts[i] = compactJSON(e)
		}
		return fmt.Sprintf("%s: %s is not one of %s", field, compactJSON(v), strings.Join(opts, ", "))
	}
	if s.Const != nil && !reflect.DeepEqual(*s.Const, v) {
		return fmt.Sprintf("%s: must be %s, got %s", field, compactJSON(*s.Const), compactJSON(v))
	}
	switch val := v.(type) {
	case float64:
		return checkNumber(s, val, field)
	case string:
		n := utf8.RuneCountInString(val)
		if s.MinLength != nil && n < *s.MinLength {
			return fmt.Sprintf("%s: must be at least %d characters long, got %d", field, *s.MinLength, n)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			return fmt.Sprintf("%s: must be at most %d characters long, got %d", field, *s.MaxLength, n)
		}
		if s.Pattern != "" {
			if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(val) {
				return fmt.Sprintf("%s: %s does not match the pattern %s", field, compactJSON(val), s.Pattern)
			}
		}
	}
	return ""
}

func checkNumber(s *jsonschema.Schema, n float64, field string) string {
	num := strconv.FormatFloat(n, 'g', -1, 64)
	switch {
	case s.Minimum != nil && n < *s.Minimum:
		return fmt.Sprintf("%s: %s is less than the minimum %s", field, num, fmtFloat(*s.Minimum))
	case s.Maximum != nil && n > *s.Maximum:
		return fmt.Sprintf("%s: %s is greater than the maximum %s", field, num, fmtFloat(*s.Maximum))
	case s.ExclusiveMinimum != nil && n <= *s.ExclusiveMinimum:
		return fmt.Sprintf("%s: %s must be greater than %s", field, num, fmtFloat(*s.ExclusiveMinimum))
	case s.ExclusiveMaximum != nil && n >= *s.ExclusiveMaximum:
		return fmt.Sprintf("%s: %s must be less than %s", field, num, fmtFloat(*s.ExclusiveMaximum))
	case s.MultipleOf != nil && *s.MultipleOf != 0:
		if _, frac := math.Modf(n / *s.MultipleOf); frac != 0 {
			return fmt.Sprintf("%s: %s is not a multiple of %s", field, num, fmtFloat(*s.MultipleOf))
		}
	}
	return ""
}

func (x *explainer) checkObject(s *jsonschema.Schema, obj map[string]any, path string) string {
	var missing []string
	for _, req := range s.Required {
		if _, ok := obj[req]; !ok {
			missing = append(missing, req)
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		return fmt.Sprintf("%s: required field is missing", joinPath(path, missing[0]))
	default:
		return fmt.Sprintf("%s: required fields are missing: %s", fieldName(path), strings.Join(missing, ", "))
	}
	known := slices.Sorted(maps.Keys(s.Properties))
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if ps, ok := s.Properties[k]; ok {
			if msg := x.check(ps, obj[k], joinPath(path, k)); msg != "" {
				return msg
			}
			continue
		}
		if s.AdditionalProperties == nil || len(s.PatternProperties) > 0 {
			continue
		}
		if isFalseSchema(s.AdditionalProperties) {
			msg := fmt.Sprintf("%s: unknown field", joinPath(path, k))
			if c := closest(k, known); c != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", c)
			}
			return msg + "; known fields: " + listNames(known)
		}
		if msg := x.check(s.AdditionalProperties, obj[k], joinPath(path, k)); msg != "" {
			return msg
		}
	}
	return ""
}

func (x *explainer) checkArray(s *jsonschema.Schema, arr []any, path string) string {
	field := fieldName(path)
	if s.MinItems != nil && len(arr) < *s.MinItems {
		return fmt.Sprintf("%s: must have at least %d items, got %d", field, *s.MinItems, len(arr))
	}
	if s.MaxItems != nil && len(arr) > *s.MaxItems {
		return fmt.Sprintf("%s: must have at most %d items, got %d", field, *s.MaxItems, len(arr))
	}
	prefix := s.PrefixItems
	if len(prefix) == 0 {
		prefix = s.ItemsArray // draft-07 tuple form
	}
	for i, item := range arr {
		sub := s.Items
		if i < len(prefix) {
			sub = prefix[i]
		} else if len(s.ItemsArray) > 0 {
			sub = s.AdditionalItems
		}
		if msg := x.check(sub, item, fmt.Sprintf("%s[%d]", path, i)); msg != "" {
			return msg
		}
	}
	return ""
}

// isFalseSchema reports whether s is the schema `false` (decoded by jsonschema-go as {"not":{}}).
func isFalseSchema(s *jsonschema.Schema) bool {
	return s.Not != nil && reflect.ValueOf(*s.Not).IsZero()
}

// jsonTypeOf names the JSON type of a decoded value. A number with no fractional part is an
// integer, as JSON Schema counts it.
func jsonTypeOf(v any) string {
	switch val := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if _, frac := math.Modf(val); frac == 0 && !math.IsInf(val, 0) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// fieldName shows a path to a user; the root is "arguments".
func fieldName(path string) string {
	if path == "" {
		return "arguments"
	}
	return path
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// compactJSON renders a value for a message, shortened so a huge argument does not flood it.
func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const limit = 80
	if len(b) > limit {
		return string(b[:limit]) + "…"
	}
	return string(b)
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// cleanValidatorError turns the validator's chain ("validating root: validating
// /properties/a/items: …: pattern: …") into "a[]: pattern: …", keeping the field and the reason.
func cleanValidatorError(msg string) string {
	var field string
	prev := ""
	for {
		rest, ok := strings.CutPrefix(msg, "validating ")
		if !ok {
			break
		}
		i := strings.Index(rest, ": ")
		if i < 0 {
			break
		}
		p := rest[:i]
		msg = rest[i+2:]
		ext := p
		if prev != "" && strings.HasPrefix(p, prev) {
			ext = p[len(prev):]
		}
		field = appendPointerField(field, ext)
		prev = p
	}
	if field == "" {
		return msg
	}
	return field + ": " + msg
}

// appendPointerField extends a field path with the instance steps implied by a schema JSON
// pointer: properties/x → .x, items → [], prefixItems/2 → [2]; other keywords do not move.
func appendPointerField(field, pointer string) string {
	segs := strings.Split(strings.Trim(pointer, "/"), "/")
	for i := 0; i < len(segs); i++ {
		switch segs[i] {
		case "properties":
			if i+1 < len(segs) {
				field = joinPath(field, unescapePointer(segs[i+1]))
				i++
			}
		case "items", "additionalItems":
			field += "[]"
		case "prefixItems":
			if i+1 < len(segs) {
				field += "[" + segs[i+1] + "]"
				i++
			}
		case "$defs", "definitions", "patternProperties", "dependentSchemas", "allOf", "anyOf", "oneOf":
			i++ // the next segment names the sub-schema, not a field
		}
	}
	return field
}
