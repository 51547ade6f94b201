package diagram

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph/formats/dot"
	"gonum.org/v1/gonum/graph/formats/dot/ast"

	app "github.com/awf-dev/awf/internal/application/diagram"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// parsed is a DOT document read back by gonum's parser: node labels and attributes by ID, edges
// as "from->to: label", and which cluster holds each node.
type parsed struct {
	name    string
	attrs   map[string]map[string]string
	edges   []string
	cluster map[string]string
}

func parseDOT(t *testing.T, src string) parsed {
	t.Helper()
	f, err := dot.ParseString(src)
	if err != nil {
		t.Fatalf("DOT does not parse: %v\n%s", err, src)
	}
	if len(f.Graphs) != 1 || !f.Graphs[0].Directed {
		t.Fatalf("want one digraph, got %d", len(f.Graphs))
	}
	p := parsed{name: unquoteDOT(f.Graphs[0].ID), attrs: map[string]map[string]string{}, cluster: map[string]string{}}
	p.walk(f.Graphs[0].Stmts, "")
	return p
}

func (p *parsed) walk(stmts []ast.Stmt, cluster string) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.NodeStmt:
			m := map[string]string{}
			for _, a := range s.Attrs {
				m[a.Key] = unquoteDOT(a.Val)
			}
			p.attrs[s.Node.ID] = m
			p.cluster[s.Node.ID] = cluster
		case *ast.EdgeStmt:
			label := ""
			for _, a := range s.Attrs {
				if a.Key == "label" {
					label = unquoteDOT(a.Val)
				}
			}
			p.edges = append(p.edges, s.From.(*ast.Node).ID+"->"+s.To.Vertex.(*ast.Node).ID+": "+label)
		case *ast.Subgraph:
			p.walk(s.Stmts, s.ID)
		}
	}
}

// unquoteDOT reads a DOT string back as Graphviz shows it: the quoting (\") and the label escapes
// (\\ and \n).
func unquoteDOT(s string) string {
	if len(s) < 2 || s[0] != '"' {
		return s
	}
	var b strings.Builder
	in := s[1 : len(s)-1]
	for i := 0; i < len(in); i++ {
		if in[i] == '\\' && i+1 < len(in) {
			i++
			switch in[i] {
			case 'n':
				b.WriteByte('\n')
			default:
				b.WriteByte(in[i])
			}
			continue
		}
		b.WriteByte(in[i])
	}
	return b.String()
}

func (p parsed) byLabel(t *testing.T, first string) (string, map[string]string) {
	t.Helper()
	for id, m := range p.attrs {
		if strings.SplitN(m["label"], "\n", 2)[0] == first {
			return id, m
		}
	}
	t.Fatalf("no node labelled %q in %v", first, p.attrs)
	return "", nil
}

func TestDOTEveryKind(t *testing.T) {
	p := parseDOT(t, DOT(loadGraph(t, "testdata/all-kinds.yaml", app.Options{Highlight: "sub"})))
	for _, c := range []struct {
		state, label, shape, cluster string
	}{
		{"build", "build\ncommand", "box", ""},
		{"ask", "ask\nagent: claude\nproxy: 2 tools / allow [read, write]", "box", ""},
		{"fan", "fan\nparallel (any_succeed)", "hexagon", ""},
		{"left", "left\ncommand", "box", "cluster_c0"},
		{"right", "right\ncommand", "box", "cluster_c0"},
		{"each", "each\nfor_each (max 5)", "invtrapezium", ""},
		{"again", "again\nwhile (max 3)", "invtrapezium", "cluster_c1"},
		{"inner", "inner\ncommand", "box", "cluster_c2"},
		{"sub", "sub\ncall_workflow: other", "component", ""},
		{"fetch", "fetch\noperation: http.request", "cds", ""},
		{"done", "done\nsuccess", "doublecircle", ""},
		{"failed", "failed\nfailure", "doublecircle", ""},
		{"__inline_error_build", "__inline_error_build\ninline on_failure", "doublecircle", ""},
	} {
		t.Run(c.state, func(t *testing.T) {
			id, m := p.byLabel(t, c.state)
			if m["label"] != c.label || m["shape"] != c.shape || p.cluster[id] != c.cluster {
				t.Errorf("got label %q shape %q cluster %q; want %q %q %q", m["label"], m["shape"], p.cluster[id], c.label, c.shape, c.cluster)
			}
			if (m["penwidth"] == "3") != (c.state == "sub") {
				t.Errorf("highlight of %s: penwidth %q", c.state, m["penwidth"])
			}
		})
	}
	_, done := p.byLabel(t, "done")
	_, failed := p.byLabel(t, "failed")
	if done["fillcolor"] == failed["fillcolor"] || failed["color"] != "#c62828" {
		t.Errorf("terminals not coloured by status: %v %v", done, failed)
	}
	id := func(n string) string { i, _ := p.byLabel(t, n); return i }
	for _, want := range []string{
		"__start->" + id("build") + ": ",
		id("build") + "->" + id("ask") + ": on_success",
		id("build") + "->" + id("__inline_error_build") + ": on_failure",
		id("ask") + "->" + id("fan") + `: when states.ask.Output contains "ok"`,
		id("ask") + "->" + id("failed") + ": otherwise",
		id("fan") + "->" + id("left") + ": branch",
		id("each") + "->" + id("again") + ": body",
		id("again") + "->" + id("inner") + ": body",
		id("each") + "->" + id("sub") + ": on_complete",
		id("fetch") + "->" + id("done") + ": on_success",
	} {
		if !contains(p.edges, want) {
			t.Errorf("no edge %q in %v", want, p.edges)
		}
	}
	if len(p.edges) != 17 {
		t.Errorf("%d edges, want 17: %v", len(p.edges), p.edges)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// hostile names and expressions must come back exactly as written and break neither format.
func TestHostileTextEscapes(t *testing.T) {
	names := []string{
		`say "hi"`, "two\nlines", `back\slash\`, `a{b}[c]|d`, `x --> y`, `<b>html</b> & co`, "end", `#35; entity`, `\n literal`,
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			w := &workflow.Workflow{Name: name, Initial: name, Order: []string{name, "ok"}, States: map[string]*workflow.State{
				name: {Name: name, Type: workflow.StateCommand, OnSuccess: "ok",
					Transitions: []workflow.Transition{{When: name + ` && x == "}"`, Goto: "ok"}}},
				"ok": {Name: "ok", Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusSuccess}},
			}}
			g, err := app.Build(w, app.Options{Highlight: name})
			if err != nil {
				t.Fatal(err)
			}
			p := parseDOT(t, DOT(g))
			if p.name != name {
				t.Errorf("graph name %q", p.name)
			}
			if m := p.attrs["s0"]; m["label"] != name+"\ncommand" {
				t.Errorf("label %q, want %q", m["label"], name+"\ncommand")
			}
			if !contains(p.edges, "s0->s1: when "+name+` && x == "}"`) {
				t.Errorf("edges %q", p.edges)
			}
			mmd := Mermaid(g)
			for _, l := range strings.Split(mmd, "\n") {
				if strings.Count(l, `"`)%2 != 0 {
					t.Errorf("unbalanced quote in %q", l)
				}
				for _, bad := range []string{"<b>", "\n", "-->" + " y", "{b}"} {
					if strings.Contains(l, bad) {
						t.Errorf("mermaid line %q holds raw %q", l, bad)
					}
				}
			}
			if got := mermaidUnquote(mermaidQuote(name)); got != strings.ReplaceAll(name, "\n", "<br/>") {
				t.Errorf("mermaid label reads back %q", got)
			}
		})
	}
}

// mermaidUnquote decodes the numeric entities mermaidQuote writes.
func mermaidUnquote(s string) string {
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '#' {
			j := strings.IndexByte(s[i:], ';')
			var r rune
			for _, d := range s[i+1 : i+j] {
				r = r*10 + (d - '0')
			}
			b.WriteRune(r)
			i += j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestQuoteTables(t *testing.T) {
	for _, c := range []struct{ in, dot, mmd string }{
		{"plain", `"plain"`, `"plain"`},
		{`a"b`, `"a\"b"`, `"a#34;b"`},
		{`a\b`, `"a\\b"`, `"a#92;b"`},
		{"a\nb", `"a\nb"`, `"a<br/>b"`},
		{"a\tb\rc", `"a b c"`, `"a b c"`},
		{"a\x01\x7fb", `"ab"`, `"ab"`},
		{"<é>&|#", `"<é>&|#"`, `"#60;#233;#62;#38;#124;#35;"`},
		{"x (y) [z] -_.,:/=+!?*@$%^~'", `"x (y) [z] -_.,:/=+!?*@$%^~'"`, `"x (y) [z] -_.,:/=+!?*@$%^~'"`},
	} {
		if got := dotQuote(c.in); got != c.dot {
			t.Errorf("dotQuote(%q) = %s, want %s", c.in, got, c.dot)
		}
		if got := mermaidQuote(c.in); got != c.mmd {
			t.Errorf("mermaidQuote(%q) = %s, want %s", c.in, got, c.mmd)
		}
	}
}

func TestDOTDirection(t *testing.T) {
	for dir, want := range map[string]string{"LR": "rankdir=LR;", "TB": "rankdir=TB;", "": "rankdir=TB;", "XX": "rankdir=TB;"} {
		g := loadGraph(t, "testdata/all-kinds.yaml", app.Options{Direction: dir})
		if got := DOT(g); !strings.Contains(got, want) {
			t.Errorf("direction %q: no %s", dir, want)
		}
	}
}
