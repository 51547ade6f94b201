package routing

import (
	"fmt"
	"unicode/utf8"
)

// maxRecordedString is the longest string value kept whole in an activity record. A Write of a
// large file would otherwise copy the file into the activity log on every call.
const maxRecordedString = 1024

// truncateString shortens s to at most limit bytes (cut on a rune boundary) and says how many
// bytes were dropped.
func truncateString(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…[truncated %d bytes]", s[:cut], len(s)-cut)
}

// truncateValue returns a copy of a decoded JSON value with every long string shortened, at any
// depth. The input is never modified: it is the same map that was validated and may be shared.
func truncateValue(v any) any {
	switch val := v.(type) {
	case string:
		return truncateString(val, maxRecordedString)
	case map[string]any:
		return truncateArgs(val)
	case []any:
		out := make([]any, len(val))
		for i, e := range val {
			out[i] = truncateValue(e)
		}
		return out
	default:
		return v
	}
}

// truncateArgs is truncateValue for an argument object; args itself when no string in it is
// too long (it is then recorded as it is, never modified).
func truncateArgs(args map[string]any) map[string]any {
	if args == nil || !tooLong(args) {
		return args
	}
	out := make(map[string]any, len(args))
	for k, e := range args {
		out[k] = truncateValue(e)
	}
	return out
}

// tooLong reports whether v holds a string that truncateValue would shorten.
func tooLong(v any) bool {
	switch val := v.(type) {
	case string:
		return len(val) > maxRecordedString
	case map[string]any:
		for _, e := range val {
			if tooLong(e) {
				return true
			}
		}
	case []any:
		for _, e := range val {
			if tooLong(e) {
				return true
			}
		}
	}
	return false
}
