package search

import "testing"

func TestUnicodeClasses(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`abc`, `abc`},
		{`\w+`, `[` + uniWord + `]+`},
		{`\W`, `[^` + uniWord + `]`},
		{`\d\D`, `[` + uniDigit + `][^` + uniDigit + `]`},
		{`\s`, `[` + uniSpace + `]`},
		{`[\w-]`, `[` + uniWord + `-]`},
		{`[\W_]`, `[\W_]`}, // a negated class inside brackets stays ASCII
		{`[]\w]`, `[]` + uniWord + `]`},
		{`[^]\d]`, `[^]` + uniDigit + `]`},
		{`[[:alpha:]\d]`, `[[:alpha:]` + uniDigit + `]`},
		{`\\w`, `\\w`}, // an escaped backslash, then a plain w
		{`\Q\w\E\w`, `\Q\w\E[` + uniWord + `]`},
		{`\Q\w`, `\Q\w`},
		{`\bx\b`, `\bx\b`},
		{`\p{Greek}\x{41}`, `\p{Greek}\x{41}`},
		{`\`, `\`},
	} {
		if got := unicodeClasses(c.in); got != c.want {
			t.Errorf("unicodeClasses(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestGrepUnicodeClassesMatch(t *testing.T) {
	for _, c := range []struct {
		pat, line string
		want      bool
	}{
		{`caf\w\b`, "café", false}, // \b is ASCII: the é is not a word character to it
		{`caf\w`, "café", true},
		{`^\w+$`, "こんにちは", true},
		{`^\d+$`, "٣٤٥", true},
		{`a\sb`, "a\u00a0b", true},
		{`a\Sb`, "a\u00a0b", false},
		{`^\W+$`, "éé", false},
		{`[\w]+é`, "naïveé", true},
	} {
		m, err := compileMatcher(c.pat, false, false)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		m.matchLines([]byte(c.line+"\n"), func(int, int) bool { got = true; return false })
		if got != c.want {
			t.Errorf("%q on %q: matched %v, want %v", c.pat, c.line, got, c.want)
		}
	}
}
