package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// TOMLString quotes s as a TOML basic string. Codex parses every `-c key=value` value as TOML
// and falls back to the raw text when that fails, so an unquoted or half-quoted path would
// silently become something else; quoting everything is the only safe way.
func TOMLString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case utf8.RuneError:
			b.WriteString(`\uFFFD`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TOMLStrings is a TOML array of basic strings.
func TOMLStrings(list []string) string {
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = TOMLString(s)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// StripJSONComments removes // and /* */ comments outside strings, as the JSONC settings
// files of gemini and opencode allow, so encoding/json can read them. Trailing commas are not
// handled: such a file is reported as unreadable rather than guessed at.
func StripJSONComments(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
			out = append(out, c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			if i < len(b) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && (b[i] != '*' || b[i+1] != '/') {
				i++
			}
			i++ // at the closing '/', or past the end of an unterminated comment
			out = append(out, ' ')
		default:
			out = append(out, c)
		}
	}
	return out
}

// ReadUserJSONC reads a user's JSON-with-comments config file (read, never written) as an
// object; a missing file is an empty object. what names the file in errors ("your gemini
// settings"); the hint says why awf reads it.
func ReadUserJSONC(path, what string) (map[string]any, error) {
	out := map[string]any{}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot read %s %s", what, path)
	}
	if err := json.Unmarshal(StripJSONComments(b), &out); err != nil || out == nil {
		return nil, fault.New(fault.ExecutionAgentSetup, "cannot read %s %s: not a JSON object (%v)", what, path, err).
			WithHint("awf builds the step's private config on it; fix the file (a trailing comma, perhaps)")
	}
	return out, nil
}
