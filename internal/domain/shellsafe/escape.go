package shellsafe

import (
	"fmt"
	"strings"
)

// Escape returns v written so that the shell would read it, in context c, as exactly v. The
// shell never receives it (values travel beside the code, see Reference): it is how Shown
// writes a command for people, in the spelling they would type. It refuses what could not be
// written as data there (a non-integer in $((…)), a here-document's terminator); Shown then
// shows the reference.
func Escape(c Context, v string) (string, error) {
	var out string
	switch c.Kind {
	case Word:
		out = word(v)
	case SingleQuoted:
		out = strings.ReplaceAll(v, "'", `'\''`)
	case DoubleQuoted:
		if c.InParam && strings.Contains(v, "'") {
			// bash reads ' inside "${x:-…}" as a quote and sh as a character: no one spelling
			// means the same to both.
			return "", fmt.Errorf(`a value with ' cannot be placed inside "${…}": bash and sh read it differently; assign it to a variable first`)
		}
		out = doubleQuoted.Replace(v)
		if c.InParam {
			out = strings.ReplaceAll(out, "}", `\}`)
		}
	case Comment:
		// A newline would end the comment and start a command; in a comment nothing reads the
		// value, so line breaks become spaces.
		out = strings.NewReplacer("\r", " ", "\n", " ").Replace(v)
	case Arithmetic:
		if !isInteger(v) {
			return "", fmt.Errorf("%q is not an integer, the only value $((…)) can take as data", clip(v))
		}
		out = v
	case Heredoc, HeredocLiteral:
		if ends(c, v) {
			return "", fmt.Errorf("the value would make a line %q, the terminator of the here-document it is placed in, and what follows would run as commands", c.Delimiter)
		}
		out = v
		if c.Kind == Heredoc {
			out = heredocBody.Replace(v)
		}
		var ok bool
		if out, ok = dashProof(c, out); !ok {
			return "", fmt.Errorf("dash, the usual /bin/sh, drops a non-ASCII byte that follows the start of the terminator %q on a line of a quoted here-document; use an unquoted delimiter or another terminator", c.Delimiter)
		}
	default:
		return "", fmt.Errorf("unknown shell context %v", c.Kind)
	}
	for range c.Backticks {
		out = backtick.Replace(out)
	}
	return out, nil
}

var (
	doubleQuoted = strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`")
	heredocBody  = strings.NewReplacer(`\`, `\\`, `$`, `\$`, "`", "\\`")
	// Inside `…` the shell first undoes \\, \` and \$, then parses the rest as a command.
	backtick = strings.NewReplacer(`\`, `\\`, "`", "\\`", `$`, `\$`)
)

// word leaves a plain value as it is, so that output and commands read as before, and quotes
// anything else. Empty stays empty, as raw pasting left it: an empty value is no word at all.
func word(v string) string {
	if v == "" || plain(v) {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

// plain reports whether v holds only characters no shell gives a meaning to in a word. `=` is
// left out (a first word `A=b` is an assignment), and so are `~`, globs and whitespace.
func plain(v string) bool {
	for i := 0; i < len(v); i++ {
		if strings.IndexByte(plainBytes, v[i]) < 0 {
			return false
		}
	}
	return true
}

// plainBytes are the characters no shell reads as syntax inside a word.
const plainBytes = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+:,./-"

// isInteger accepts what every shell's arithmetic reads as the same integer: an optional minus
// and up to 18 decimal digits (so it fits in 64 bits).
func isInteger(v string) bool {
	s := strings.TrimPrefix(v, "-")
	return s != "" && len(s) <= 18 && strings.Trim(s, "0123456789") == ""
}

// clip shortens a value for an error message.
func clip(v string) string {
	const keep = 40
	if len(v) <= keep {
		return v
	}
	return v[:keep] + "…"
}

// dashProof works around a dash bug: on a here-document line that starts like the terminator,
// the first byte that no longer matches is lost when it is not ASCII ("E\xe7" under EOF reads
// back as "E"). In an expanding here-document an empty expansion, ${-+}, placed before that
// byte keeps it; a quoted one has no such spelling, so the value is refused.
func dashProof(c Context, v string) (string, bool) {
	full := c.Line + v
	var b strings.Builder
	first := lineBody(full, 0, c.StripTabs) // where the current line's compared text starts
	for j := 0; j < len(full); j++ {
		ch := full[j]
		if j >= len(c.Line) {
			if ch >= 0x80 && j > first && j-first <= len(c.Delimiter) && strings.HasPrefix(c.Delimiter, full[first:j]) {
				if c.Kind == HeredocLiteral {
					return "", false
				}
				b.WriteString("${-+}")
			}
			b.WriteByte(ch)
		}
		if ch == '\n' {
			first = lineBody(full, j+1, c.StripTabs)
		}
	}
	return b.String(), true
}

// lineBody is where the text dash compares with the terminator starts on the line starting at
// start: after its leading tabs in a <<- document.
func lineBody(s string, start int, stripTabs bool) int {
	for stripTabs && start < len(s) && s[start] == '\t' {
		start++
	}
	return start
}

// ends reports whether placing v would create a line equal to the here-document's terminator.
func ends(c Context, v string) bool {
	for _, line := range strings.Split(c.Line+v+c.Suffix, "\n") {
		if c.StripTabs {
			line = strings.TrimLeft(line, "\t")
		}
		if line == c.Delimiter {
			return true
		}
	}
	return false
}
