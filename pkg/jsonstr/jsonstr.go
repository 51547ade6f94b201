// Package jsonstr writes a Go string as a JSON string, byte for byte as encoding/json.Marshal
// writes it, without reflection and without allocating beyond dst. It exists for the hand-made
// encoders on hot paths (the activity log's line for every tool call, the MCP server's direct
// tools/call answer), which must stay interchangeable with what json.Marshal writes for the
// same value: readers, golden files and the SDK's own answers compare equal.
//
// What it escapes is what json.Marshal escapes by default (HTML-safe, json.Encoder's
// SetEscapeHTML(true)):
//   - '"' and '\' as \" and \\;
//   - '<', '>' and '&' as \u003c, \u003e and \u0026, so the text can sit in HTML;
//   - the control characters below U+0020 as \n, \r, \t, \b or \f where JSON has a short form,
//     else \u00XX (lower-case hex); DEL (0x7f) is written as it is;
//   - U+2028 and U+2029 as \u2028 and \u2029, which JSON allows raw but JavaScript did not;
//   - each byte that is not part of valid UTF-8 as \ufffd (one per byte, as json.Marshal does),
//     so the output is always valid UTF-8.
//
// Every other character, ASCII or not, is copied as it is.
package jsonstr

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// plain marks the ASCII bytes written as they are.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// Append appends s to dst as a quoted JSON string, exactly as json.Marshal(s) writes it (see
// the package comment for the escapes), and returns the extended slice.
func Append(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
