package jsonstr

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppend(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", `""`},
		{"plain", "plain text/.~", `"plain text/.~"`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`},
		{"html", `<a href="x">&amp;</a>`, `"\u003ca href=\"x\"\u003e\u0026amp;\u003c/a\u003e"`},
		{"short escapes", "\n\r\t\b\f", `"\n\r\t\b\f"`},
		{"other controls", "\x00\x01\x0b\x1f", `"\u0000\u0001\u000b\u001f"`},
		{"space and DEL as they are", " \x7f", "\" \x7f\""},
		{"line and paragraph separators", "a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"neighbours of the separators", "\u2027\u202a", "\"\u2027\u202a\""},
		{"non-ASCII as it is", "é日\U0001F600", "\"é日\U0001F600\""},
		{"invalid byte", "a\xffb", `"a\ufffdb"`},
		{"truncated sequence", "a\xc3", `"a\ufffd"`},
		{"surrogate encoded: one per byte", "\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Append([]byte("x"), tc.in)); got != "x"+tc.want {
				t.Fatalf("Append(%q) = %s, want %s", tc.in, got[1:], tc.want)
			}
		})
	}
}

// seeds are strings json.Marshal and Append must write alike: every escape, the separators
// and their neighbours, invalid UTF-8, and a long run.
var seeds = []string{"", "plain", "<a href=\"x\">&amp;</a>", "\x00\x01\x07\x08\x09\x0a\x0b\x0c\x0d\x1f\x20\x7f",
	"é\u2028\u2029\u2027\u202a", "\xff", "a\xc3", "\xed\xa0\x80", "\U0001F600\\/", strings.Repeat("yyyyyyy\n", 512)}

func TestAppendMatchesMarshal(t *testing.T) {
	for _, s := range seeds {
		checkMatchesMarshal(t, s)
	}
	for c := 0; c < 256; c++ {
		checkMatchesMarshal(t, "a"+string(rune(c))+string([]byte{byte(c)})+"b")
	}
}

func checkMatchesMarshal(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := Append([]byte("x"), s); string(got) != "x"+string(want) {
		t.Fatalf("Append(%q) = %s, want %s", s, got[1:], want)
	}
}

func FuzzAppend(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(checkMatchesMarshal)
}

func TestAppendDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 256)
	s := "<tab>\there \u2028 é \xff"
	if n := testing.AllocsPerRun(100, func() { _ = Append(buf[:0], s) }); n != 0 {
		t.Fatalf("%v allocations, want 0", n)
	}
}
