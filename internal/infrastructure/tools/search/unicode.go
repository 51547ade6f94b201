package search

import "strings"

// Perl classes as ripgrep reads them: Unicode-aware, where Go's RE2 syntax makes \w, \d and \s
// ASCII-only. Without this a line of non-ASCII identifiers or digits matched in rg and not here
// (the docs/design.md#pitfalls "the same counts as rg"). Alphabetic is spelled as letters, letter numbers and
// marks, since Go's regexp syntax has no \p{Alphabetic}.
const (
	uniWord  = `\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D}`
	uniDigit = `\p{Nd}`
	uniSpace = `\t\n\v\f\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}`
)

// unicodeClasses rewrites the Perl classes of a pattern into their Unicode forms: \w \d \s and
// their negations, outside and inside bracket expressions. Escaped backslashes, \Q…\E quoting
// and \p{…}/\x{…} escapes are copied unchanged. A negated class inside brackets ([\W_]) cannot be
// written as a union in RE2 and stays ASCII; \b stays ASCII (RE2 has no Unicode word boundary).
// An invalid pattern is returned in a form that fails to compile just as the original did.
func unicodeClasses(p string) string {
	if !strings.Contains(p, `\`) {
		return p
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			n := p[i+1]
			if n == 'Q' { // literal text up to \E
				end := strings.Index(p[i+2:], `\E`)
				if end < 0 {
					b.WriteString(p[i:])
					return b.String()
				}
				b.WriteString(p[i : i+2+end+2])
				i += 2 + end + 1
				continue
			}
			if r, ok := unicodeClass(n, inClass); ok {
				b.WriteString(r)
			} else {
				b.WriteString(p[i : i+2])
			}
			i++
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
			// A ']' (after an optional '^') right after '[' is a literal member.
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				b.WriteByte(']')
				i++
			}
		case c == '[' && inClass && i+1 < len(p) && p[i+1] == ':': // [:alpha:] stays as it is
			end := strings.Index(p[i:], ":]")
			if end < 0 {
				b.WriteString(p[i:])
				return b.String()
			}
			b.WriteString(p[i : i+end+2])
			i += end + 1
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unicodeClass is the Unicode spelling of the Perl class \n, if it has one in this position.
func unicodeClass(n byte, inClass bool) (string, bool) {
	var set string
	switch n {
	case 'w', 'W':
		set = uniWord
	case 'd', 'D':
		set = uniDigit
	case 's', 'S':
		set = uniSpace
	default:
		return "", false
	}
	negated := n == 'W' || n == 'D' || n == 'S'
	switch {
	case inClass && negated:
		return "", false
	case inClass:
		return set, true
	case negated:
		return "[^" + set + "]", true
	default:
		return "[" + set + "]", true
	}
}
