package strictyaml

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
)

func parse(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

func TestKindNameAndIsNull(t *testing.T) {
	for _, tc := range []struct {
		src, kind string
		null      bool
	}{
		{"{a: 1}", "a mapping", false},
		{"[1]", "a list", false},
		{"~", "nothing", true},
		{"true", "a boolean (true)", false},
		{"12", "a number (12)", false},
		{"1.5", "a number (1.5)", false},
		{"word", `the text "word"`, false},
	} {
		n := parse(t, tc.src)
		if got := KindName(n); got != tc.kind {
			t.Errorf("KindName(%s) = %q, want %q", tc.src, got, tc.kind)
		}
		if IsNull(n) != tc.null {
			t.Errorf("IsNull(%s) = %v", tc.src, !tc.null)
		}
	}
	if KindName(nil) != "nothing" || !IsNull(nil) {
		t.Error("a missing node is nothing")
	}
}

// TestResolveSpendsTheBudget: an alias costs one expansion; past the budget Resolve gives nil
// and the file gets one diagnostic, with the reader's code.
func TestResolveSpendsTheBudget(t *testing.T) {
	root := parse(t, "a: &x 1\nb: *x\n")
	alias := root.Content[3]
	r := &Reader{File: "f.yaml", Code: fault.UserWorkflowInvalidValue}
	if got := r.Resolve(alias); got == nil || got.Value != "1" {
		t.Fatalf("Resolve = %v, want the anchored scalar", got)
	}
	r.expansions = MaxExpansions
	if got := r.Resolve(alias); got != nil {
		t.Fatalf("Resolve past the budget = %v, want nil", got)
	}
	r.Resolve(alias)
	if len(r.Diags) != 1 || r.Diags[0].Code != fault.UserWorkflowInvalidValue || !strings.Contains(r.Diags[0].Message, "expand") {
		t.Fatalf("diagnostics %v, want one expansion error", r.Diags)
	}
}

func TestMappingRefusesWhatIsNoMapping(t *testing.T) {
	for _, tc := range []struct {
		src, want string
		ok        bool
	}{
		{"[1]", "x must be a mapping, got a list", false},
		{"~", "", true},
		{"{[1]: a}", "keys of x must be plain words, got a list", true},
		{"{<<: 3}", "the merge key `<<` in x needs a mapping, got a number (3)", true},
	} {
		r := &Reader{File: "f.yaml", Code: fault.UserPluginsInvalidValue}
		_, ok := r.Mapping(parse(t, tc.src), "x", "")
		msg := ""
		if len(r.Diags) > 0 {
			msg = r.Diags[0].Message
		}
		if ok != tc.ok || msg != tc.want {
			t.Errorf("Mapping(%s): ok %v, %q; want %v, %q", tc.src, ok, msg, tc.ok, tc.want)
		}
	}
}

func TestSyntaxPlacesTheError(t *testing.T) {
	for _, tc := range []struct {
		src       string
		line, col int
		hintPart  string
	}{
		{"a: b: c\n", 1, 1, "quote values"},
		{"a:\n\tb: 1\n", 2, 1, "tabs"},
		{"a: 1\nb: *nope\n", 2, 4, "define the anchor"},
	} {
		var doc yaml.Node
		err := yaml.Unmarshal([]byte(tc.src), &doc)
		if err == nil {
			t.Fatalf("%q parsed", tc.src)
		}
		r := &Reader{File: "f.yaml"}
		r.Syntax(err, []byte(tc.src))
		d := r.Diags[0]
		if d.Code != fault.UserYAMLSyntax || d.Line != tc.line || d.Column != tc.col || !strings.Contains(d.Hint, tc.hintPart) {
			t.Errorf("%q: %s at %d:%d hint %q; want %d:%d hint with %q", tc.src, d.Code, d.Line, d.Column, d.Hint, tc.line, tc.col, tc.hintPart)
		}
	}
}
