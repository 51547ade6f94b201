package urlsafe

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"text/template"
)

// render fills tmpl with v as .v through Prepare and Verify, as http.request does.
func render(t *testing.T, tmpl string, v any) (string, error) {
	t.Helper()
	tp, err := template.New("url").Option("missingkey=error").Funcs(template.FuncMap{RawName: func(v any) string { return fmt.Sprint(v) }}).Parse(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Prepare(tp, tmpl)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := tp.Execute(&b, map[string]any{"v": v, "on": true}); err != nil {
		t.Fatal(err)
	}
	return b.String(), plan.Verify(b.String())
}

func TestValuesStayInTheirPart(t *testing.T) {
	tests := []struct {
		name, tmpl string
		v          any
		want       string
		// path, query, fragment: what the server sees, decoded once.
		path, query string
	}{
		{name: "plain path", tmpl: "https://api.test/items/{{.v}}", v: "42", want: "https://api.test/items/42", path: "/items/42"},
		{name: "traversal and query in a segment", tmpl: "https://api.test/items/{{.v}}", v: "../../admin/delete?x=1",
			want: "https://api.test/items/..%2F..%2Fadmin%2Fdelete%3Fx=1", path: "/items/../../admin/delete?x=1"},
		{name: "encoded dots stay encoded", tmpl: "https://api.test/items/{{.v}}", v: "%2e%2e%2fadmin",
			want: "https://api.test/items/%252e%252e%252fadmin", path: "/items/%2e%2e%2fadmin"},
		{name: "fragment in a segment", tmpl: "https://api.test/items/{{.v}}/x", v: "a#b", want: "https://api.test/items/a%23b/x", path: "/items/a#b/x"},
		{name: "backslash", tmpl: "https://api.test/items/{{.v}}", v: `..\..\admin`, want: "https://api.test/items/..%5C..%5Cadmin", path: `/items/..\..\admin`},
		{name: "at sign in path stays in path", tmpl: "https://api.test/{{.v}}", v: "user@evil.test", want: "https://api.test/user@evil.test", path: "/user@evil.test"},
		{name: "crlf", tmpl: "https://api.test/{{.v}}", v: "a\r\nHost: evil", want: "https://api.test/a%0D%0AHost:%20evil", path: "/a\r\nHost: evil"},
		{name: "unicode", tmpl: "https://api.test/{{.v}}", v: "é/ü", want: "https://api.test/%C3%A9%2F%C3%BC", path: "/é/ü"},
		{name: "query value", tmpl: "https://api.test/s?q={{.v}}&n=1", v: "a&admin=1#x", want: "https://api.test/s?q=a%26admin%3D1%23x&n=1", query: "a&admin=1#x"},
		{name: "query crlf and at", tmpl: "https://api.test/s?q={{.v}}", v: "@evil\r\n", want: "https://api.test/s?q=%40evil%0D%0A", query: "@evil\r\n"},
		{name: "fragment", tmpl: "https://api.test/s#{{.v}}", v: "a b#c", want: "https://api.test/s#a%20b%23c"},
		{name: "value piped through a function", tmpl: `https://api.test/{{.v | printf "%s-x"}}`, v: "a/b", want: "https://api.test/a%2Fb-x", path: "/a/b-x"},
		{name: "if around a query", tmpl: "https://api.test/s{{if .on}}?q={{.v}}{{else}}?q=none{{end}}&z=1", v: "a&b", want: "https://api.test/s?q=a%26b&z=1", query: "a&b"},
		{name: "number", tmpl: "https://api.test:8443/page/{{.v}}", v: 3, want: "https://api.test:8443/page/3", path: "/page/3"},
		{name: "urlquery is not escaped twice", tmpl: "https://api.test/s?q={{.v | urlquery}}", v: "a b&c", want: "https://api.test/s?q=a+b%26c", query: "a b&c"},
		{name: "raw path keeps slashes", tmpl: "https://api.test/{{raw .v}}", v: "a/b/c", want: "https://api.test/a/b/c", path: "/a/b/c"},
		{name: "raw base", tmpl: "{{raw .v}}/items/{{.v}}", v: "https://h.test", want: "https://h.test/items/https:%2F%2Fh.test", path: "/items/https://h.test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, tt.tmpl, tt.v)
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
			u, err := url.Parse(got)
			if err != nil {
				t.Fatal(err)
			}
			if tt.path != "" && u.Path != tt.path {
				t.Errorf("server sees path %q, want %q", u.Path, tt.path)
			}
			if tt.query != "" && u.Query().Get("q") != tt.query {
				t.Errorf("server sees q=%q, want %q (query %v)", u.Query().Get("q"), tt.query, u.Query())
			}
		})
	}
}

func TestRefused(t *testing.T) {
	tests := []struct {
		name, tmpl string
		v          any
		prepare    bool // refused by Prepare (and Check), not at Verify
		want       error
	}{
		{name: "value as host", tmpl: "https://{{.v}}/x", v: "evil.test", prepare: true},
		{name: "value after host", tmpl: "https://api.test{{.v}}", v: ".evil.test", prepare: true},
		{name: "value as port", tmpl: "https://api.test:{{.v}}/x", v: "1", prepare: true},
		{name: "value as scheme", tmpl: "{{.v}}://api.test/", v: "http", prepare: true},
		{name: "value as whole url", tmpl: "{{.v}}", v: "https://evil.test", prepare: true},
		{name: "urlquery as host", tmpl: "https://{{.v | urlquery}}/", v: "evil.test", prepare: true},
		{name: "value as user", tmpl: "https://{{.v}}@api.test/", v: "u", prepare: true},
		{name: "if moves the part", tmpl: "https://api.test/s{{if .on}}?a=1{{end}}{{.v}}", v: "x", prepare: true},
		{name: "range moves the part", tmpl: "https://api.test/s{{range .v}}?{{.}}{{end}}", v: []string{"a"}, prepare: true},
		{name: "if chooses the host", tmpl: "https://{{if .on}}a{{else}}b{{end}}.test/", v: "x", prepare: true},
		{name: "raw host changed by a value", tmpl: "https://api.test{{raw .v}}/x", v: ".evil.test", want: nil},
		{name: "dot segment", tmpl: "https://api.test/items/{{.v}}/x", v: "..", want: ErrDotSegment},
		{name: "single dot segment", tmpl: "https://api.test/items/{{.v}}", v: ".", want: ErrDotSegment},
		{name: "raw path climbing", tmpl: "https://api.test/items/{{raw .v}}", v: "%2E%2e/admin", want: ErrDotSegment},
		{name: "raw path sending elsewhere", tmpl: "https://api.test/{{raw .v}}", v: "/x", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs, err := Check(tt.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			got, rerr := render(t, tt.tmpl, tt.v)
			if tt.prepare {
				var pe *PlaceError
				if len(errs) == 0 || !errors.As(rerr, &pe) || pe.Line != 1 || pe.Column < 1 {
					t.Fatalf("Check %v, render %q %v: want the place refused", errs, got, rerr)
				}
				return
			}
			if len(errs) != 0 {
				t.Fatalf("Check refused %v", errs)
			}
			if tt.want != nil && !errors.Is(rerr, tt.want) {
				t.Fatalf("render %q, %v; want %v", got, rerr, tt.want)
			}
			if tt.want == nil && rerr != nil {
				t.Fatalf("render %q, %v; want it accepted", got, rerr)
			}
		})
	}
}

func TestVerifyHostChanged(t *testing.T) {
	tp := template.Must(template.New("u").Parse("https://api.test/x"))
	plan, err := Prepare(tp, "https://api.test/x")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"https://evil.test/x", "http://api.test/x", "https://api.test:444/x", "https://u@api.test/x"} {
		if err := plan.Verify(bad); !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "api.test") {
			t.Errorf("Verify(%q) = %v, want ErrChanged naming the template's host", bad, err)
		}
	}
	if err := plan.Verify("https://API.test/x/y"); err != nil {
		t.Errorf("same host in other case refused: %v", err)
	}
}

func TestCheckPositions(t *testing.T) {
	errs, err := Check("https://\n  {{.a}}.test/{{.b}}?x={{.c}}")
	if err != nil || len(errs) != 1 || errs[0].Line != 2 || errs[0].Column != 3 || !strings.Contains(errs[0].Error(), "raw") {
		t.Fatalf("errs %v %v, want one at 2:3 pointing to raw", errs, err)
	}
	if errs, err := Check("https://api.test/{{"); err == nil {
		t.Fatalf("syntax error not returned: %v", errs)
	}
}

// TestPlanKeepsUserInfo: a template's own user info is part of what Verify holds a rendered
// URL to, so a value cannot change who the request authenticates as, and the template's user
// passes unchanged.
func TestPlanKeepsUserInfo(t *testing.T) {
	const tmpl = "https://bot@api.test/items/{{.v}}"
	if got, err := render(t, tmpl, "7"); err != nil || got != "https://bot@api.test/items/7" {
		t.Fatalf("render = %q, %v", got, err)
	}
	tp := template.Must(template.New("u").Parse(tmpl))
	plan, err := Prepare(tp, tmpl)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"https://admin@api.test/items/7", "https://api.test/items/7"} {
		if err := plan.Verify(bad); !errors.Is(err, ErrChanged) {
			t.Errorf("Verify(%q) = %v, want ErrChanged", bad, err)
		}
	}
}

// TestPlaceErrorPositions: the position of a refused place is the line and column of its
// {{, also on a later line and after earlier text on the same line.
func TestPlaceErrorPositions(t *testing.T) {
	tests := []struct {
		tmpl         string
		line, column int
	}{
		{"{{.v}}://api.test/", 1, 1},
		{"https://{{.v}}/x", 1, 9},
		{"https://\n{{.v}}.test/", 2, 1},
		{"https://\n  a{{.v}}.test/", 2, 4},
		{"https://\n\n    {{ .v }}.test/", 3, 5},
	}
	for _, tt := range tests {
		errs, err := Check(tt.tmpl)
		if err != nil || len(errs) != 1 {
			t.Fatalf("Check(%q) = %v, %v; want one place error", tt.tmpl, errs, err)
		}
		if errs[0].Line != tt.line || errs[0].Column != tt.column {
			t.Errorf("Check(%q) at %d:%d, want %d:%d", tt.tmpl, errs[0].Line, errs[0].Column, tt.line, tt.column)
		}
	}
}

// TestActionsThatPrintNothingOrAreEscaped: a declaration prints nothing and moves no part; an
// if/else that stays in the path is accepted; an else branch that chooses the host is refused.
func TestActionsThatPrintNothingOrAreEscaped(t *testing.T) {
	if got, err := render(t, "https://api.test/{{$x := .v}}a/{{$x}}", "b/c"); err != nil || got != "https://api.test/a/b%2Fc" {
		t.Errorf("declaration: %q, %v", got, err)
	}
	if got, err := render(t, "https://api.test/{{if .on}}{{.v}}{{else}}none{{end}}/z", "a?b"); err != nil || got != "https://api.test/a%3Fb/z" {
		t.Errorf("if/else in a segment: %q, %v", got, err)
	}
	for _, tmpl := range []string{"https://{{if .on}}api{{else}}{{.v}}{{end}}.test/", "https://api{{if .on}}{{else}}.evil{{end}}.test/"} {
		if errs, err := Check(tmpl); err != nil || len(errs) == 0 {
			t.Errorf("Check(%q) = %v, %v; want the host choice refused", tmpl, errs, err)
		}
	}
}

// TestBranchesAndActionsPerPart: each {{if}}/{{with}}/{{range}} and each printing action is
// judged by the part it is in. A body that stays in its part, or branches that all end in the
// same part, are accepted; a range or an if without else that moves the part, or branches
// that write different hosts, are refused at their {{. In the authority only a raw value may
// print; elsewhere raw and urlquery are pasted as they are and every other value is escaped.
func TestBranchesAndActionsPerPart(t *testing.T) {
	tests := []struct {
		name, tmpl string
		v          any
		want       string // the rendered URL when accepted
		line, col  int    // the refused place when refused
		msg        string // in the refusal
	}{
		{name: "if without else stays in the path", tmpl: "https://api.test/s{{if .on}}/{{.v}}{{end}}/z", v: "a/b", want: "https://api.test/s/a%2Fb/z"},
		{name: "empty if in the host", tmpl: "https://api{{if .on}}{{end}}.test/{{.v}}", v: "a b", want: "https://api.test/a%20b"},
		{name: "if and else both move to the query", tmpl: "https://api.test/s{{if .on}}?a=1{{else}}?a=2{{end}}&q={{.v}}", v: "x&y", want: "https://api.test/s?a=1&q=x%26y"},
		{name: "if without else moves to the query", tmpl: "https://api.test/s{{if .on}}?a=1{{end}}", v: "x", line: 1, col: 19, msg: "different URL parts (path, query)"},
		{name: "range and else both move to the query", tmpl: "https://api.test/s{{range .v}}?a={{.}}{{else}}?a=0{{end}}", v: []string{"x"}, line: 1, col: 19, msg: "{{range}} end in different URL parts (path, query)"},
		{name: "with writes the host", tmpl: "https://{{with .v}}a{{end}}.test/", v: "x", line: 1, col: 9, msg: "this {{with}} chooses the scheme, host or port"},
		{name: "else writes the host", tmpl: "https://\n  api{{if .on}}{{else}}.evil{{end}}.test/", v: "x", line: 2, col: 6, msg: "this {{if}} chooses the scheme, host or port"},
		{name: "raw writes the authority", tmpl: "{{raw .v}}/items", v: "https://h.test", want: "https://h.test/items"},
		{name: "value as host", tmpl: "https://{{.v}}/", v: "evil.test", line: 1, col: 9, msg: "{{raw …}}"},
		{name: "value spread over lines as host", tmpl: "https://\n{{\n  .v}}.test/", v: "evil", line: 3, col: 3, msg: "cannot choose the URL's scheme, host or port"},
		{name: "urlquery in a segment is not escaped twice", tmpl: "https://api.test/{{.v | urlquery}}", v: "a/b c", want: "https://api.test/a%2Fb+c"},
		{name: "raw piped in a query is pasted", tmpl: "https://api.test/s?q={{.v | raw}}", v: "a&b=c", want: "https://api.test/s?q=a&b=c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs, err := Check(tt.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			got, rerr := render(t, tt.tmpl, tt.v)
			if tt.want != "" {
				if len(errs) != 0 || rerr != nil || got != tt.want {
					t.Fatalf("Check %v, render %q, %v; want %q", errs, got, rerr, tt.want)
				}
				return
			}
			var pe *PlaceError
			if !errors.As(rerr, &pe) || len(errs) != 1 {
				t.Fatalf("Check %v, render %q, %v; want one refused place", errs, got, rerr)
			}
			for _, e := range []*PlaceError{errs[0], pe} {
				if e.Line != tt.line || e.Column != tt.col || !strings.Contains(e.Error(), tt.msg) {
					t.Errorf("refused %q, want %d:%d: …%s…", e, tt.line, tt.col, tt.msg)
				}
			}
		})
	}
}
