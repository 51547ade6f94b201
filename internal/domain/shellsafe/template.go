package shellsafe

import (
	"fmt"
	"strconv"
	"strings"
	"text/template"
	"text/template/parse"
)

// RawName is the template function that opts a value out of the environment: `{{raw
// .inputs.script}}` pastes the value into the shell code, which is exactly what references
// prevent, so validation warns at each use.
const RawName = "raw"

// escaperPrefix names the functions the rewrite appends to each action, one per place.
const escaperPrefix = "_awf_shell_"

// Funcs must be given to a template before it is parsed, so that `raw` is a known function.
func Funcs() template.FuncMap {
	return template.FuncMap{RawName: func(v any) string { return fmt.Sprint(v) }}
}

// quoters are template functions that return their argument as one shell word: in a bare word
// the reference already is one, so the rewrite takes their argument instead of their output.
var quoters = map[string]bool{"quote": true, "escape": true}

// PlaceError is a placeholder that cannot hold data where it is, with its place in the
// template (1-based line and column).
type PlaceError struct {
	Line, Column int
	Err          error
}

func (e *PlaceError) Error() string { return fmt.Sprintf("%d:%d: %v", e.Line, e.Column, e.Err) }

func (e *PlaceError) Unwrap() error { return e.Err }

// RawUse is one `raw` in a template, for validation's warning.
type RawUse struct{ Line, Column int }

// Prepare rewrites a parsed template so that every value it prints becomes a reference to an
// environment variable, quoted for its shell place; the returned Binding executes it. It also
// returns the uses of `raw`, and an error for a place no value can take (after a backslash,
// inside a here-document delimiter, where a shell would read the value as code, or branches of
// {{if}} that leave the quoting in different states).
func Prepare(t *template.Template, text string) (*Binding, []RawUse, error) {
	if t.Tree == nil || t.Tree.Root == nil {
		return &Binding{}, nil, nil
	}
	b := &Binding{}
	p, err := prepare(t.Tree, text, b)
	if err != nil {
		return nil, nil, err
	}
	if len(p.errs) > 0 {
		return nil, nil, p.errs[0]
	}
	t.Funcs(p.funcs)
	return b, p.raws, nil
}

func prepare(tree *parse.Tree, text string, b *Binding) (*preparer, error) {
	p := &preparer{tree: tree, text: text, funcs: template.FuncMap{}, bind: b}
	l := NewLexer()
	if err := p.list(tree.Root, l); err != nil {
		return nil, err
	}
	l.End()
	for _, pl := range p.placed {
		if pl.ctx.Refused != nil {
			p.fail(pl.node, pl.ctx.Refused)
		}
	}
	return p, nil
}

// Check reports, without running anything, what Prepare would say of a shell template: its
// uses of raw, and every place no value can take. Functions are not checked; a syntax error is
// returned as the parser's error.
func Check(text string) ([]RawUse, []*PlaceError, error) {
	if !strings.Contains(text, "{{") {
		return nil, nil, nil
	}
	t := parse.New("shell")
	t.Mode = parse.SkipFuncCheck
	tree, err := t.Parse(text, "", "", map[string]*parse.Tree{})
	if err != nil {
		return nil, nil, err
	}
	p, err := prepare(tree, text, &Binding{})
	if err != nil {
		return nil, nil, err
	}
	return p.raws, p.errs, nil
}

type preparer struct {
	// errs are the places found so far that no value can take; all are reported at once.
	errs  []*PlaceError
	tree  *parse.Tree
	text  string
	funcs template.FuncMap
	raws  []RawUse
	n     int
	bind  *Binding
	// placed are the places found, judged again when the text ends (Context.Refused).
	placed []placed
}

type placed struct {
	node parse.Node
	ctx  *Context
}

func (p *preparer) fail(n parse.Node, err error) {
	p.errs = append(p.errs, p.place(n, err).(*PlaceError))
}

// place locates n: the 1-based line and column of the {{ that opens it.
func (p *preparer) place(n parse.Node, err error) error {
	off := min(int(n.Position()), len(p.text))
	if i := strings.LastIndex(p.text[:off], "{{"); i >= 0 {
		off = i
	}
	before := p.text[:off]
	return &PlaceError{Err: err, Line: 1 + strings.Count(before, "\n"), Column: off - strings.LastIndexByte(before, '\n')}
}

func (p *preparer) list(list *parse.ListNode, l *Lexer) error {
	if list == nil {
		return nil
	}
	for _, n := range list.Nodes {
		if err := p.node(n, l); err != nil {
			return err
		}
	}
	return nil
}

func (p *preparer) node(n parse.Node, l *Lexer) error {
	switch n := n.(type) {
	case *parse.TextNode:
		l.Text(string(n.Text))
	case *parse.ActionNode:
		return p.action(n, l)
	case *parse.IfNode:
		return p.branches(n, &n.BranchNode, l, false)
	case *parse.WithNode:
		return p.branches(n, &n.BranchNode, l, false)
	case *parse.RangeNode:
		return p.branches(n, &n.BranchNode, l, true)
	case *parse.TemplateNode:
		p.fail(n, fmt.Errorf("{{template}} cannot be used in shell code: its output could not be escaped"))
	}
	return nil
}

// branches follows each branch from the same state; they must end in one state, and a loop's
// body must end where it began, or no single context exists after them.
func (p *preparer) branches(n parse.Node, b *parse.BranchNode, l *Lexer, loop bool) error {
	then, other := l.Clone(), l.Clone()
	if err := p.list(b.List, then); err != nil {
		return err
	}
	if err := p.list(b.ElseList, other); err != nil {
		return err
	}
	if !then.Same(other) || (loop && !then.Same(l)) {
		p.fail(n, fmt.Errorf("the branches of this block leave the shell quoting in different states; close every quote inside each branch"))
	}
	*l = *then
	if other.risk() > then.risk() {
		*l = *other // the branch whose command may parse a later value again decides (eval, sh -c …)
	}
	return nil
}

func (p *preparer) action(n *parse.ActionNode, l *Lexer) error {
	if len(n.Pipe.Decl) > 0 {
		return nil // {{$x := …}} prints nothing
	}
	c, err := l.Context()
	if err != nil {
		p.fail(n, err)
		l.Value(&c)
		return nil
	}
	ctx := &c
	l.Value(ctx)
	p.placed = append(p.placed, placed{n, ctx})
	last := n.Pipe.Cmds[len(n.Pipe.Cmds)-1]
	switch fn := lastFunc(n.Pipe); {
	case fn == RawName:
		line, col := p.lineCol(n)
		p.raws = append(p.raws, RawUse{Line: line, Column: col})
	case quoters[fn] && c.Kind == Word && len(last.Args) <= 2:
		last.Args[0] = p.escaper(n, ctx, true) // {{quote .v}} → {{_awf_shell_N .v}}, {{.v | quote}} likewise
	default:
		n.Pipe.Cmds = append(n.Pipe.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: n.Pos, Args: []parse.Node{p.escaper(n, ctx, false)}})
	}
	return nil
}

// escaper registers the function that turns this action's value into a reference.
func (p *preparer) escaper(n *parse.ActionNode, ctx *Context, quoted bool) parse.Node {
	name := escaperPrefix + strconv.Itoa(p.n)
	p.n++
	b := p.bind
	p.funcs[name] = func(v any) (string, error) { return b.reference(ctx, quoted, v) }
	return parse.NewIdentifier(name).SetTree(p.tree).SetPos(n.Pos)
}

func (p *preparer) lineCol(n parse.Node) (int, int) {
	if pe, ok := p.place(n, nil).(*PlaceError); ok {
		return pe.Line, pe.Column
	}
	return 0, 0
}

// lastFunc is the function the pipeline ends with, if it ends with one.
func lastFunc(pipe *parse.PipeNode) string {
	if len(pipe.Cmds) == 0 {
		return ""
	}
	args := pipe.Cmds[len(pipe.Cmds)-1].Args
	if len(args) == 0 {
		return ""
	}
	if id, ok := args[0].(*parse.IdentifierNode); ok {
		return id.Ident
	}
	return ""
}
