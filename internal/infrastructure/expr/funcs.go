package expr

import (
	"fmt"
	"strings"

	exprlang "github.com/expr-lang/expr"
)

// callName is what the reference's contains(a, b) is rewritten to: the same length, so the
// offsets of everything after it, and thus error columns, stay true to the source.
const callName = "Contains"

// functions are the reference's helper functions. Each takes two strings; other values are
// compared by their text, as the reference's users expect of `contains(states.x.ExitCode, 1)`.
func functions() []exprlang.Option {
	two := func(f func(a, b string) bool) func(params ...any) (any, error) {
		return func(params ...any) (any, error) {
			if len(params) != 2 {
				return nil, fmt.Errorf("takes 2 arguments, got %d", len(params))
			}
			return f(text(params[0]), text(params[1])), nil
		}
	}
	return []exprlang.Option{
		exprlang.Function(callName, two(strings.Contains)),
		exprlang.Function("has_prefix", two(strings.HasPrefix)),
		exprlang.Function("has_suffix", two(strings.HasSuffix)),
	}
}

func text(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// rewriteCalls turns each call-position `contains(` into `Contains(`: in expr-lang, contains is
// an infix operator (a contains b) and cannot be called. String literals are left alone, and so
// is the operator form, so `x contains "contains("` keeps its meaning.
func rewriteCalls(src string) string {
	const word = "contains"
	if !strings.Contains(src, word) {
		return src
	}
	b := []byte(src)
	var quote byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case strings.HasPrefix(src[i:], word) && (i == 0 || !identByte(b[i-1])) && callFollows(src[i+len(word):]) && !afterOperand(src[:i]):
			copy(b[i:], callName)
			i += len(word) - 1
		}
	}
	return string(b)
}

// afterOperand reports whether the text before a `contains` ends with an operand, which makes it
// the infix operator: `a contains ("x")`. After an operator word or symbol it is a call.
func afterOperand(before string) bool {
	before = strings.TrimRight(before, " \t\n")
	if before == "" {
		return false
	}
	last := before[len(before)-1]
	switch {
	case last == ')' || last == ']' || last == '"' || last == '\'' || last == '`':
		return true
	case !identByte(last):
		return false
	}
	start := len(before)
	for start > 0 && identByte(before[start-1]) {
		start--
	}
	switch before[start:] {
	case "and", "or", "not", "in", "matches", "contains", "startsWith", "endsWith", "if", "then", "else", "let":
		return false
	}
	return true
}

func callFollows(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	return strings.HasPrefix(rest, "(")
}

func identByte(c byte) bool {
	return c == '_' || c == '.' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
