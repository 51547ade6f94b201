package search

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// refLines is the definition matchLines must agree with: split into lines, match each alone.
func refLines(t testing.TB, pattern string, ignoreCase bool, buf []byte) []string {
	flags := "(?m"
	if ignoreCase {
		flags += "i"
	}
	// The definition reads \w \d \s as rg does, like Grep (unicodeClasses has its own tests).
	re := regexp.MustCompile(flags + ")" + unicodeClasses(pattern))
	var out []string
	for pos := 0; pos < len(buf); {
		le := lineEnd(buf, pos)
		if re.Match(buf[pos:le]) {
			out = append(out, fmt.Sprintf("%d-%d", pos, le))
		}
		pos = le + 1
	}
	return out
}

func gotLines(m *matcher, buf []byte) []string {
	var out []string
	m.matchLines(buf, func(ls, le int) bool {
		out = append(out, fmt.Sprintf("%d-%d", ls, le))
		return true
	})
	return out
}

var matcherInputs = []string{
	"",
	"\n",
	"\n\n\n",
	"foo\nbar\nbaz",
	"foo bar\nfoobar\nbar foo\n",
	"Hello World\nhello world\nHELLO\n",
	"KELVIN \u212Aelvin kelvin\nſtop STOP stop\n",
	"func (r *Reader) Read(p []byte) (int, error)\nfunc (w *Writer) Write()\n",
	"a\r\nb\r\n",
	"2024-01-02 date\nno date\n1999-12-31\n",
	"abc\x00def\nghi\n",
	strings.Repeat("x", 5000) + "needle\n" + strings.Repeat("y\n", 3000) + "needle",
	"éàü unicode\nplain\n",
}

var matcherPatterns = []string{
	"foo", "bar", "o", "^foo", "foo$", "^$", "", ".", `\bbar\b`, "foo|baz", "(foo|bar)+",
	`func \(\w+ \*?\w+\) Read\w*\(`, `\d{4}-\d{2}-\d{2}`, "hello", "kelvin", "stop", `\s+`, `\n`,
	`a\nb`, `[A-Z]+`, `(?i)hello`, `(?-m)^foo`, `\Afoo`, `bar\z`, `y$`, "needle", `x{3}needle`, `é`, "(?s).",
	"foo|", `[^x]`,
}

func TestMatcherAgreesWithLineByLine(t *testing.T) {
	for _, pat := range matcherPatterns {
		for _, ic := range []bool{false, true} {
			m, err := compileMatcher(pat, ic, false)
			if err != nil {
				t.Fatalf("%q: %v", pat, err)
			}
			for _, in := range matcherInputs {
				got := strings.Join(gotLines(m.clone(), []byte(in)), " ")
				want := strings.Join(refLines(t, pat, ic, []byte(in)), " ")
				if got != want {
					t.Errorf("pattern %q -i=%v input %.40q:\n got %s\nwant %s", pat, ic, in, got, want)
				}
			}
		}
	}
}

func TestMatcherStrategies(t *testing.T) {
	tests := []struct {
		pattern string
		ic      bool
		lits    string
		exact   bool
	}{
		{"needle", false, "needle", true},
		{`foo\.bar`, false, "foo.bar", true},
		{`func \(\w+`, false, "func (", false},
		{"foo|bar", false, "foo,bar", false},
		{"(?:read|write)closer", true, "closer", false}, // "closer" minus s: "closer" → "clo" / "er"; longest
		{"kelvin", true, "elvin", false},
		{`\w+`, false, "", false},
		{"a+", false, "a", false},
	}
	for _, tt := range tests {
		m, err := compileMatcher(tt.pattern, tt.ic, false)
		if err != nil {
			t.Fatal(err)
		}
		var lits []string
		if m.find != nil {
			for _, l := range m.find.lits {
				lits = append(lits, strings.ToLower(string(l)))
			}
		}
		got := strings.Join(lits, ",")
		if tt.pattern == "(?:read|write)closer" {
			// the best run is "read"/"write" minus s/k or "clo"/"er"; any is fine if it is required
			if got == "" {
				t.Errorf("%q: no literal extracted", tt.pattern)
			}
			continue
		}
		if got != tt.lits || m.exact != tt.exact {
			t.Errorf("%q: lits %q exact %v; want %q %v", tt.pattern, got, m.exact, tt.lits, tt.exact)
		}
	}
}

func TestMultiline(t *testing.T) {
	buf := []byte("a\nfoo\nbar\nb\nfoo\nx\nbar\n")
	tests := []struct {
		pattern string
		want    string
	}{
		{`foo\nbar`, "2-5 6-9"},
		{`foo.bar`, "2-5 6-9"},                          // . matches the newline in multiline mode
		{`foo.*bar`, "2-5 6-9 10-11 12-15 16-17 18-21"}, // greedy across lines
		{`^b$`, "10-11"},
		{`x\n`, "16-17"},
	}
	for _, tt := range tests {
		m, err := compileMatcher(tt.pattern, false, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(gotLines(m, buf), " "); got != tt.want {
			t.Errorf("%q: got %s want %s", tt.pattern, got, tt.want)
		}
	}
}

func TestFoldSafe(t *testing.T) {
	for in, want := range map[string]string{"kelvin": "elvin", "ERRUNEXPECTEDEOF": "ERRUNEXPECTEDEOF", "sks": "", "aésbcd": "bcd", "": ""} {
		if got := foldSafe(in); got != want {
			t.Errorf("foldSafe(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLitFinderMultiple(t *testing.T) {
	f := newLitFinder([]string{"cat", "dog"}, false)
	buf := []byte("the dog chased the cat and the dog")
	var got []int
	for pos := 0; ; {
		i := f.next(buf, pos)
		if i < 0 {
			break
		}
		got = append(got, i)
		pos = i + 1
	}
	if fmt.Sprint(got) != "[4 19 31]" {
		t.Fatalf("got %v", got)
	}
	ff := newLitFinder([]string{"DoG"}, true)
	if i := ff.next([]byte("xx dOg"), 0); i != 3 {
		t.Fatalf("fold: %d", i)
	}
}

// FuzzGrep checks the fast matcher against the line-by-line definition for arbitrary patterns
// and data, in both case modes; multiline mode must not panic and must report whole lines.
func FuzzGrep(f *testing.F) {
	for i, p := range matcherPatterns {
		f.Add(p, matcherInputs[i%len(matcherInputs)], i%2 == 0, false)
	}
	f.Add(`a\nb`, "a\nb\n", false, true)
	f.Fuzz(func(t *testing.T, pattern, data string, ic, multiline bool) {
		if _, err := syntax.Parse(pattern, syntax.Perl); err != nil {
			return
		}
		m, err := compileMatcher(pattern, ic, multiline)
		if err != nil {
			return
		}
		buf := []byte(data)
		if multiline {
			prev := -1
			m.matchLines(buf, func(ls, le int) bool {
				if ls <= prev || le > len(buf) || ls > le || (ls > 0 && buf[ls-1] != '\n') || (le < len(buf) && buf[le] != '\n') || bytes.IndexByte(buf[ls:le], '\n') >= 0 {
					t.Fatalf("bad line %d-%d after %d", ls, le, prev)
				}
				prev = le
				return true
			})
			return
		}
		got := strings.Join(gotLines(m, buf), " ")
		want := strings.Join(refLines(t, pattern, ic, buf), " ")
		if got != want {
			t.Fatalf("pattern %q -i=%v data %q:\n got %s\nwant %s", pattern, ic, data, got, want)
		}
	})
}
