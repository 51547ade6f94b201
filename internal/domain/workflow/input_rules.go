package workflow

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// InputRules is an input's `validation:` block, with the reference awf's rules. Every rule is
// checked against the value before anything runs; awf validate checks the rules themselves
// (a pattern compiles, enum values have the input's type, min <= max) and the default against
// them.
type InputRules struct {
	// Pattern is a Go (RE2) regular expression the text must match somewhere; anchor it with
	// ^…$ to match the whole value. Applies to string inputs and each item of an array.
	Pattern string
	// Enum lists the allowed values, of the input's type (array inputs: allowed items, as text).
	Enum []any
	// Min and Max bound integer and number inputs, inclusive: int64 or float64 as written, nil
	// when absent.
	Min, Max any
	// FileExists requires the value (each item of an array) to name an existing path; a
	// relative path is taken from the project root.
	FileExists bool
	// FileExtension lists the allowed extensions (".go" or "go", compared without regard to
	// case; ".tar.gz" works).
	FileExtension []string
}

// MaxPatternLen caps a validation pattern; RE2 cannot backtrack, but a pattern this long is a
// mistake or an attack, not a rule.
const MaxPatternLen = 4096

// CompilePattern compiles a validation pattern, refusing one longer than MaxPatternLen.
func CompilePattern(p string) (*regexp.Regexp, error) {
	if len(p) > MaxPatternLen {
		return nil, fmt.Errorf("the pattern is %d characters long; at most %d are allowed", len(p), MaxPatternLen)
	}
	return regexp.Compile(p)
}

// Violation is one rule a value breaks: the code, what is wrong and what is allowed.
type Violation struct {
	Code, Msg, Hint string
}

// CheckRules checks v, a value of in's type, against in's rules, except file_exists, which
// needs the file system (see FilePaths). Every broken rule is returned.
func CheckRules(in Input, v any) []Violation {
	r := in.Validation
	if r == nil {
		return nil
	}
	var out []Violation
	if in.Type == InputArray {
		l, _ := v.(InputList)
		for i, item := range l {
			for _, vi := range textRules(r, itemText(item)) {
				vi.Msg = fmt.Sprintf("item #%d: %s", i+1, vi.Msg)
				out = append(out, vi)
			}
		}
		return out
	}
	if s, ok := v.(string); ok {
		return textRules(r, s)
	}
	if len(r.Enum) > 0 && !inEnum(r.Enum, v) {
		out = append(out, Violation{fault.UserInputNotAllowed, fmt.Sprintf("%v is not one of the allowed values", v), "allowed: " + listValues(r.Enum)})
	}
	if vi, bad := outOfRange(r, v); bad {
		out = append(out, vi)
	}
	return out
}

// textRules checks one text (a string input, or one item of an array).
func textRules(r *InputRules, s string) []Violation {
	var out []Violation
	if r.Pattern != "" {
		re, err := CompilePattern(r.Pattern)
		switch {
		case err != nil:
			out = append(out, Violation{fault.UserInputInvalidRule, "the pattern " + strconv.Quote(r.Pattern) + " does not compile: " + err.Error(), "fix the pattern; awf validate reports it with its position"})
		case !re.MatchString(s):
			out = append(out, Violation{fault.UserInputPatternMismatch, fmt.Sprintf("%s does not match the pattern %s", quoteValue(s), r.Pattern), "give a value that matches " + r.Pattern})
		}
	}
	if len(r.Enum) > 0 && !inEnum(r.Enum, s) {
		hint := "allowed: " + listValues(r.Enum)
		if sug := suggest.Closest(s, enumTexts(r.Enum)); sug != "" {
			hint = "did you mean '" + sug + "'? " + hint
		}
		out = append(out, Violation{fault.UserInputNotAllowed, quoteValue(s) + " is not one of the allowed values", hint})
	}
	if len(r.FileExtension) > 0 && !HasExtension(s, r.FileExtension) {
		out = append(out, Violation{fault.UserInputFileExtension, fmt.Sprintf("%s does not end with an allowed extension", quoteValue(s)), "allowed: " + strings.Join(r.FileExtension, ", ")})
	}
	return out
}

// HasExtension reports whether path ends with one of exts (".go" or "go"), ignoring case. The
// name must have something before the extension: ".go" alone is a hidden file, not a Go file.
func HasExtension(path string, exts []string) bool {
	base := strings.ToLower(path[strings.LastIndexAny(path, `/\`)+1:])
	for _, e := range exts {
		e = strings.ToLower(e)
		if !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		if e != "." && len(base) > len(e) && strings.HasSuffix(base, e) {
			return true
		}
	}
	return false
}

// FilePaths lists the paths a file_exists rule asks about: the value, or each item of an array.
func FilePaths(in Input, v any) []string {
	if in.Validation == nil || !in.Validation.FileExists {
		return nil
	}
	switch v := v.(type) {
	case string:
		return []string{v}
	case InputList:
		out := make([]string, 0, len(v))
		for _, item := range v {
			out = append(out, itemText(item))
		}
		return out
	}
	return nil
}

func outOfRange(r *InputRules, v any) (Violation, bool) {
	lo, hasLo := bound(r.Min)
	hi, hasHi := bound(r.Max)
	x, ok := bound(v)
	if !ok || (!hasLo && !hasHi) {
		return Violation{}, false
	}
	allowed := rangeText(r)
	switch {
	case hasLo && lessThan(v, x, r.Min, lo):
		return Violation{fault.UserInputOutOfRange, fmt.Sprintf("%v is below the minimum %v", v, r.Min), allowed}, true
	case hasHi && lessThan(r.Max, hi, v, x):
		return Violation{fault.UserInputOutOfRange, fmt.Sprintf("%v is above the maximum %v", v, r.Max), allowed}, true
	}
	return Violation{}, false
}

// lessThan compares two numbers, exactly when both are integers.
func lessThan(a any, af float64, b any, bf float64) bool {
	ai, aInt := a.(int64)
	bi, bInt := b.(int64)
	if aInt && bInt {
		return ai < bi
	}
	return af < bf
}

func rangeText(r *InputRules) string {
	switch {
	case r.Min != nil && r.Max != nil:
		return fmt.Sprintf("give a value from %v to %v", r.Min, r.Max)
	case r.Min != nil:
		return fmt.Sprintf("give a value of at least %v", r.Min)
	}
	return fmt.Sprintf("give a value of at most %v", r.Max)
}

// bound reads a number (int, int64 or float64) as a float64.
func bound(x any) (float64, bool) {
	switch n := x.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, !math.IsNaN(n)
	}
	return 0, false
}

func inEnum(enum []any, v any) bool {
	for _, e := range enum {
		switch e.(type) {
		case string, bool:
			if e == v {
				return true
			}
		}
		if a, ok := bound(e); ok {
			if b, ok := bound(v); ok && a == b {
				return true
			}
		}
	}
	return false
}

func enumTexts(enum []any) []string {
	out := make([]string, 0, len(enum))
	for _, e := range enum {
		out = append(out, fmt.Sprint(e))
	}
	return out
}

func listValues(enum []any) string { return strings.Join(enumTexts(enum), ", ") }

// itemText is an array item as rules see it: text as is, anything else as JSON.
func itemText(item any) string {
	if s, ok := item.(string); ok {
		return s
	}
	return strings.TrimSuffix(strings.TrimPrefix(InputList{item}.String(), "["), "]")
}
