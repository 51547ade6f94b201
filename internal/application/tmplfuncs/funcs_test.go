package tmplfuncs

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

// TestJoinTakesEveryList: an array input reaches templates as a workflow.InputList, a loop's
// items as []any; join prints each, and still refuses what is no list.
func TestJoinTakesEveryList(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{workflow.InputList{"README.md", "go.mod"}, "README.md, go.mod"},
		{[]any{1, "b"}, "1, b"},
		{[]int{1, 2}, "1, 2"},
		{[]string{}, ""},
	} {
		if got, err := JoinFunc(tc.in, ", "); err != nil || got != tc.want {
			t.Errorf("join(%#v) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := JoinFunc(map[string]any{"a": 1}, ","); err == nil {
		t.Error("join of a mapping must fail")
	}
}

func TestSplitJSONAndQuote(t *testing.T) {
	if got := SplitFunc(" a , b ,c", ","); len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Errorf("split = %q", got)
	}
	if got, err := JSONFunc(map[string]any{"k": []int{1}}); err != nil || got != `{"k":[1]}` {
		t.Errorf("json = %q, %v", got, err)
	}
	if _, err := JSONFunc(func() {}); err == nil {
		t.Error("json of a function gave no error")
	}
	for in, want := range map[string]string{"": "''", "a b": "'a b'", "it's": `'it'\''s'`} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
	if got := Text["escape"].(func(any) string)(42); got != "'42'" {
		t.Errorf("escape(42) = %s", got)
	}
	if got, err := JoinFunc("one", ","); err != nil || got != "one" {
		t.Errorf("join of a string = %q, %v", got, err)
	}
}

// TestLinesSplitsOutputIntoItems: lines gives one item per non-empty line, ignoring the
// trailing newline and CRLF endings, and prints as the JSON list for_each items read.
func TestLinesSplitsOutputIntoItems(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{"a.go\nb.go\n", `["a.go","b.go"]`},
		{"a.go\r\n\r\n  \nb c.go", `["a.go","b c.go"]`},
		{"", `[]`},
		{"\n\n", `[]`},
		{`x"y`, `["x\"y"]`},
		{"<a&b>", `["<a&b>"]`},
	} {
		got := LinesFunc(tc.in)
		if got.String() != tc.want {
			t.Errorf("lines(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if j, err := JoinFunc(LinesFunc("a\nb\n"), ","); err != nil || j != "a,b" {
		t.Errorf("join(lines) = %q, %v", j, err)
	}
}
