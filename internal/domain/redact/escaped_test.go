package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// A secret holding characters JSON escapes is masked inside a JSON line too, where it appears
// escaped: a quote, a backslash, a newline, a carriage return and a tab each.
func TestSecretMaskedInsideJSON(t *testing.T) {
	for _, c := range []struct{ name, value string }{
		{"quote", `abc"defghij`},
		{"backslash", `abc\defghij`},
		{"newline", "abc\ndefghij"},
		{"return", "abc\rdefghij"},
		{"tab", "abc\tdefghij"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := New([]string{"API_TOKEN=" + c.value})
			line, _ := json.Marshal(map[string]string{"error": "got " + c.value + " back"})
			out := r.String(string(line))
			esc, _ := json.Marshal(c.value)
			inner := strings.Trim(string(esc), `"`)
			if strings.Contains(out, inner) || !strings.Contains(out, Mask) {
				t.Fatalf("JSON line %s redacted to %s: the escaped secret %s is still there", line, out, inner)
			}
			if raw := r.String("got " + c.value + " back"); strings.Contains(raw, c.value) {
				t.Fatalf("the raw secret survived: %q", raw)
			}
		})
	}
}

// Two secrets side by side become one mask, not two: nothing of their boundary shows.
func TestAdjacentSecretsMergeIntoOneMask(t *testing.T) {
	r := New([]string{"A_TOKEN=aaaaaaaaaaaa", "B_TOKEN=bbbbbbbbbbbb"})
	got := r.String("x aaaaaaaaaaaabbbbbbbbbbbb y")
	if want := "x " + Mask + " y"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// A secret value directly followed by a token of a known shape is one masked run: the merge
// keeps the first mask and nothing of either shows.
func TestSecretBesideShapeMergesIntoOneMask(t *testing.T) {
	r := New([]string{"A_TOKEN=aaaaaaaaaaaa"})
	tok := "ghp_" + strings.Repeat("Z", 36)
	got := r.String("x aaaaaaaaaaaa" + tok + " y")
	if want := "x " + Mask + " y"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
