package workflow

import (
	"fmt"
	"slices"
	"strings"
	"text/template/parse"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// TemplateProblem is a template that parses but that the runner would refuse: an unknown
// function, a wrong count of arguments, a comparison of values of unlike kinds, a template
// name that is not defined. Line counts from 1 within the template.
type TemplateProblem struct {
	Line      int
	Code      string
	Msg, Hint string
}

// TemplateCheck is what CheckTemplate finds beyond TemplateRefs.
type TemplateCheck struct {
	// Refs are references TemplateRefs cannot see: through a dot moved by {{with}}, through a
	// variable ({{$s := .states.a}}{{$s.Output}}), through index with constant keys
	// ({{index .inputs "x"}}) or after a parenthesised pipeline.
	Refs     []Ref
	Problems []TemplateProblem
}

// CheckTemplate walks a template as the runner would execute it, without data: every function
// must be one of TemplateFuncs or a namespace of TemplateRoots and get as many arguments as it
// takes; only functions take arguments; eq, lt and the other comparisons must compare values
// of one kind (kind tells the kind of the value at a data path, "" when unknown). A syntax
// error is returned as a *TemplateError.
func CheckTemplate(text string, kind func(path []string) string) (TemplateCheck, error) {
	if !strings.Contains(text, "{{") {
		return TemplateCheck{}, nil
	}
	t := parse.New(templateName)
	t.Mode = parse.SkipFuncCheck
	trees := map[string]*parse.Tree{}
	tree, err := t.Parse(text, "", "", trees)
	if err != nil {
		return TemplateCheck{}, toTemplateError(err)
	}
	c := &checker{text: text, kind: kind, trees: trees}
	if tree.Root != nil {
		c.list(tree.Root, []string{}, map[string][]string{})
	}
	for name, tr := range trees {
		if name != templateName && tr.Root != nil {
			c.list(tr.Root, nil, map[string][]string{}) // a defined template's dot is its caller's
		}
	}
	return c.out, nil
}

type checker struct {
	text  string
	kind  func([]string) string
	trees map[string]*parse.Tree
	out   TemplateCheck
}

// value is what the checker knows of a value: the data path it comes from (nil when none) and
// its kind ("" when unknown).
type value struct {
	path []string
	kind string
}

func (c *checker) line(pos parse.Pos) int {
	off := min(int(pos), len(c.text))
	return 1 + strings.Count(c.text[:off], "\n")
}

func (c *checker) problem(pos parse.Pos, code, hint, format string, args ...any) {
	c.out.Problems = append(c.out.Problems, TemplateProblem{Line: c.line(pos), Code: code, Msg: fmt.Sprintf(format, args...), Hint: hint})
}

func (c *checker) ref(path []string, pos parse.Pos) {
	off := min(int(pos), len(c.text))
	c.out.Refs = append(c.out.Refs, Ref{Path: slices.Clone(path), Offset: off, Line: c.line(pos)})
}

func (c *checker) kindOf(path []string) string {
	if path == nil || c.kind == nil {
		return ""
	}
	if len(path) == 0 {
		return KindMap
	}
	return c.kind(path)
}

func (c *checker) list(l *parse.ListNode, dot []string, vars map[string][]string) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		c.node(n, dot, vars)
	}
}

func (c *checker) node(n parse.Node, dot []string, vars map[string][]string) {
	switch n := n.(type) {
	case *parse.ActionNode:
		v := c.pipe(n.Pipe, dot, vars)
		for _, d := range n.Pipe.Decl {
			vars[d.Ident[0]] = v.path
		}
	case *parse.IfNode:
		c.pipe(n.Pipe, dot, vars)
		c.list(n.List, dot, clone(vars))
		c.list(n.ElseList, dot, clone(vars))
	case *parse.WithNode:
		inner := clone(vars)
		v := c.pipe(n.Pipe, dot, inner)
		c.list(n.List, v.path, inner)
		c.list(n.ElseList, dot, clone(vars))
	case *parse.RangeNode:
		inner := clone(vars)
		c.pipe(n.Pipe, dot, inner)
		for _, d := range n.Pipe.Decl {
			inner[d.Ident[0]] = nil
		}
		c.list(n.List, nil, inner)
		c.list(n.ElseList, dot, clone(vars))
	case *parse.TemplateNode:
		if _, ok := c.trees[n.Name]; !ok || n.Name == templateName {
			c.problem(n.Pos, fault.UserTemplateBadCall, "define it in the same text with {{define \""+n.Name+"\"}}…{{end}}, or drop the {{template}}",
				"{{template %q}} names a template that is not defined", n.Name)
		}
		c.pipe(n.Pipe, dot, vars)
	case *parse.ListNode:
		c.list(n, dot, vars)
	}
}

func clone(vars map[string][]string) map[string][]string {
	out := make(map[string][]string, len(vars))
	for k, v := range vars {
		out[k] = v
	}
	return out
}

// pipe checks a pipeline and returns what its result is known to be.
func (c *checker) pipe(p *parse.PipeNode, dot []string, vars map[string][]string) value {
	if p == nil {
		return value{}
	}
	var last value
	for i, cmd := range p.Cmds {
		last = c.command(cmd, i > 0, last, dot, vars)
	}
	return last
}

// command checks one command of a pipeline; piped is the value piped into it, if any.
func (c *checker) command(cmd *parse.CommandNode, isPiped bool, piped value, dot []string, vars map[string][]string) value {
	id, isFunc := cmd.Args[0].(*parse.IdentifierNode)
	if !isFunc {
		if len(cmd.Args) > 1 || isPiped {
			c.problem(cmd.Pos, fault.UserTemplateBadCall, "only functions take arguments; to print several values, write one {{ }} for each",
				"%s is a value, not a function: it cannot take arguments", cmd.Args[0])
		}
		return c.arg(cmd.Args[0], dot, vars)
	}
	args := make([]value, 0, len(cmd.Args))
	for _, a := range cmd.Args[1:] {
		args = append(args, c.arg(a, dot, vars))
	}
	if isPiped {
		args = append(args, piped)
	}
	if !c.call(id, len(args)) {
		return value{}
	}
	switch id.Ident {
	case "index":
		return c.index(cmd, args)
	case "len":
		return value{kind: KindInt}
	case "print", "printf", "println", "html", "js", "urlquery", "quote", "raw":
		return value{kind: KindString}
	}
	if ordered, ok := comparisons[id.Ident]; ok {
		c.compare(id, ordered, args)
		return value{kind: KindBool}
	}
	if slices.Contains(TemplateRoots, id.Ident) {
		return value{path: []string{id.Ident}, kind: KindMap}
	}
	return value{}
}

// call checks that a function exists and gets n arguments; false when it was refused.
func (c *checker) call(id *parse.IdentifierNode, n int) bool {
	ar, ok := TemplateFuncs()[id.Ident]
	if slices.Contains(TemplateRoots, id.Ident) {
		ar, ok = Arity{0, 0}, true
	}
	switch {
	case !ok:
		hint := "templates read data as .inputs.NAME, .states.STATE.Output, .env.VAR, .workflow.ID; functions: " + strings.Join(funcNames(), ", ")
		if s := suggest.Closest(id.Ident, append(funcNames(), TemplateRoots...)); s != "" {
			hint = "did you mean '" + s + "'?"
		}
		c.problem(id.Pos, fault.UserTemplateUnknownFunction, hint, "%q is neither a function nor a namespace of the data", id.Ident)
		return false
	case id.Ident == "call":
		c.problem(id.Pos, fault.UserTemplateBadCall, "call the function directly, e.g. {{quote .inputs.x}}", "call needs a function value, and the data of a workflow holds none")
		return false
	case n < ar.Min || (ar.Max >= 0 && n > ar.Max):
		c.problem(id.Pos, fault.UserTemplateBadCall, "give it "+arityText(ar)+"; a value piped in with | counts as the last argument",
			"%s takes %s, and gets %d here", id.Ident, arityText(ar), n)
		return false
	}
	return true
}

// index follows constant keys through the data: {{index .states "a" "Output"}} reads what
// .states.a.Output reads, and is checked as such.
func (c *checker) index(cmd *parse.CommandNode, args []value) value {
	if len(args) == 0 || args[0].path == nil || len(cmd.Args) != len(args)+1 {
		return value{}
	}
	path := slices.Clone(args[0].path)
	for _, a := range cmd.Args[2:] {
		s, ok := a.(*parse.StringNode)
		if !ok {
			return value{}
		}
		path = append(path, s.Text)
	}
	if len(path) > len(args[0].path) {
		c.ref(path, cmd.Pos)
	}
	return value{path: path, kind: c.kindOf(path)}
}

func (c *checker) compare(id *parse.IdentifierNode, ordered bool, args []value) {
	first := ""
	for _, a := range args {
		switch {
		case a.kind == "":
			continue
		case a.kind == KindList || a.kind == KindMap || (ordered && a.kind == KindBool):
			c.problem(id.Pos, fault.UserTemplateTypeMismatch, "compare plain values: text, numbers or booleans (for lists, compare len)",
				"%s cannot compare %s values", id.Ident, a.kind)
			return
		case first == "":
			first = a.kind
		case a.kind != first:
			c.problem(id.Pos, fault.UserTemplateTypeMismatch, "compare values of one kind: quote numbers to compare them as text, or write 1.0 to compare with a number input",
				"%s compares %s with %s, which Go templates refuse", id.Ident, first, a.kind)
			return
		}
	}
}

// arg is what an argument is known to be, checking what it calls and recording the references
// TemplateRefs cannot see.
func (c *checker) arg(n parse.Node, dot []string, vars map[string][]string) value {
	switch n := n.(type) {
	case *parse.FieldNode:
		if dot == nil {
			return value{}
		}
		path := append(slices.Clone(dot), n.Ident...)
		if len(dot) > 0 {
			c.ref(path, n.Pos)
		}
		return value{path: path, kind: c.kindOf(path)}
	case *parse.DotNode:
		return value{path: dot, kind: c.kindOf(dot)}
	case *parse.VariableNode:
		base, known := vars[n.Ident[0]]
		if n.Ident[0] == "$" {
			base, known = []string{}, true
		}
		if !known || base == nil {
			return value{}
		}
		path := append(slices.Clone(base), n.Ident[1:]...)
		if n.Ident[0] != "$" && len(n.Ident) > 1 {
			c.ref(path, n.Pos)
		}
		return value{path: path, kind: c.kindOf(path)}
	case *parse.ChainNode:
		var base value
		switch inner := n.Node.(type) {
		case *parse.IdentifierNode:
			if !c.call(inner, 0) || !slices.Contains(TemplateRoots, inner.Ident) {
				return value{}
			}
			path := append([]string{inner.Ident}, n.Field...)
			return value{path: path, kind: c.kindOf(path)} // TemplateRefs has it
		default:
			base = c.arg(inner, dot, vars)
		}
		if base.path == nil {
			return value{}
		}
		path := append(slices.Clone(base.path), n.Field...)
		c.ref(path, n.Pos)
		return value{path: path, kind: c.kindOf(path)}
	case *parse.IdentifierNode:
		if !c.call(n, 0) {
			return value{}
		}
		if slices.Contains(TemplateRoots, n.Ident) {
			return value{path: []string{n.Ident}, kind: KindMap}
		}
	case *parse.PipeNode:
		return c.pipe(n, dot, vars)
	case *parse.StringNode:
		return value{kind: KindString}
	case *parse.BoolNode:
		return value{kind: KindBool}
	case *parse.NumberNode:
		return value{kind: numberKind(n)}
	}
	return value{}
}

// numberKind is the kind text/template gives a number constant: a float when written with a
// point, an exponent or a hex 'p' (1.0 is a float, though integral), else an integer; a rune
// constant ('a') is an integer.
func numberKind(n *parse.NumberNode) string {
	hexInt := strings.HasPrefix(strings.ToLower(strings.TrimLeft(n.Text, "+-")), "0x") && !strings.ContainsAny(n.Text, "pP")
	switch {
	case n.IsFloat && !hexInt && !strings.HasPrefix(n.Text, "'") && strings.ContainsAny(n.Text, ".eEpP"):
		return KindFloat
	case n.IsInt:
		return KindInt
	case n.IsFloat:
		return KindFloat
	}
	return ""
}

func arityText(a Arity) string {
	switch {
	case a.Max < 0:
		return fmt.Sprintf("at least %d argument%s", a.Min, plural(a.Min))
	case a.Min == a.Max:
		return fmt.Sprintf("%d argument%s", a.Min, plural(a.Min))
	}
	return fmt.Sprintf("%d to %d arguments", a.Min, a.Max)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func funcNames() []string {
	out := make([]string, 0, len(TemplateFuncs()))
	for k := range TemplateFuncs() {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
