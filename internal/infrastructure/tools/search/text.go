package search

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Display rules Grep shares with the Read tool: how much of a line is shown, what marks a file
// as binary, and how an output is cut to its size cap.
const (
	// MaxLineChars is how many characters of one line Read and Grep show.
	MaxLineChars = 2000
	// BinarySniffBytes is the prefix in which a NUL byte marks a file as binary.
	BinarySniffBytes = 8 << 10
)

// CutRunes returns s as valid UTF-8 (invalid bytes become U+FFFD), cut after n characters, and
// whether anything was cut. Truncated input that ends inside a character is cut, not replaced.
func CutRunes(s []byte, n int) (string, bool) {
	var b strings.Builder
	count := 0
	for i := 0; i < len(s); {
		if count == n {
			return b.String(), true
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size <= 1 {
			b.WriteRune(utf8.RuneError)
			i++
		} else {
			b.Write(s[i : i+size])
			i += size
		}
		count++
	}
	return b.String(), false
}

// CapText cuts s to at most limit bytes at a line boundary, with a note.
func CapText(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := strings.LastIndexByte(s[:max(limit-200, 0)], '\n') + 1
	return s[:cut] + fmt.Sprintf("[output truncated: %d bytes total, showing the first %d]\n", len(s), cut)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
