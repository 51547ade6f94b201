// Package urlsafe keeps values in the URL part their template puts them in
// (docs/decisions/0027-values-out-of-band.md): each {{…}} of an http.request url is escaped
// for the part it lands in, a path segment, a query value or the fragment, so that a value such
// as `../../admin/delete?x` stays one segment; a value cannot choose the scheme, host or port
// unless the template marks it {{raw …}}; and a rendered URL whose scheme, host or port differs
// from the template's is refused.
package urlsafe

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"text/template"
	"text/template/parse"
)

// RawName is the template function that pastes a value as it is (shellsafe's raw).
const RawName = "raw"

// Part is where in a URL a placeholder lands.
type Part int

// The parts, in the order a URL has them.
const (
	Authority Part = iota // the scheme, user info, host and port: no value may choose them
	Path                  // a path segment: url.PathEscape, so `/`, `?`, `#` and `..` stay inside it
	Query                 // a query key or value: url.QueryEscape, so `&`, `=`, `#` stay inside it
	Fragment              // the fragment: url.PathEscape
)

func (p Part) String() string {
	return [...]string{"scheme, host or port", "path", "query", "fragment"}[p]
}

// escaperPrefix names the functions Prepare appends to each action, one per part.
const escaperPrefix = "_awf_url_"

// PlaceError is a placeholder in a part no value may take, with its 1-based line and column.
type PlaceError struct {
	Line, Column int
	Err          error
}

func (e *PlaceError) Error() string { return fmt.Sprintf("%d:%d: %v", e.Line, e.Column, e.Err) }

func (e *PlaceError) Unwrap() error { return e.Err }

// ErrChanged is ErrorChanged's cause: the rendered URL goes elsewhere than its template.
var ErrChanged = errors.New("the rendered URL's scheme, host or port differs from the template's")

// ErrDotSegment is Verify's cause for a rendered path with a `.` or `..` segment: a value that
// is exactly `..` stays one segment, but a server would still climb up a directory with it.
var ErrDotSegment = errors.New("the rendered URL climbs out of its path")

// Plan is what Prepare learnt of a template: the scheme and host (with port) its text writes,
// or rawAuthority when a {{raw}} value writes them.
type Plan struct {
	scheme, user, host string
	rawAuthority       bool
}

// Prepare rewrites a parsed url template so that each value it prints is escaped for its
// part, and returns what Verify checks the rendered URL against. It refuses a value in the
// scheme, host or port (unless raw) and {{if}}/{{range}} bodies that leave the URL in another
// part than they found it.
func Prepare(t *template.Template, text string) (*Plan, error) {
	p := &preparer{text: text, tree: t.Tree}
	if t.Tree != nil && t.Tree.Root != nil {
		p.list(t.Tree.Root)
	}
	if len(p.errs) > 0 {
		return nil, p.errs[0]
	}
	t.Funcs(escapers)
	return p.plan(), nil
}

// Check reports, without rendering, every placeholder of a url template Prepare would refuse.
// A syntax error is returned as the parser's error.
func Check(text string) ([]*PlaceError, error) {
	if !strings.Contains(text, "{{") {
		return nil, nil
	}
	t := parse.New("url")
	t.Mode = parse.SkipFuncCheck
	tree, err := t.Parse(text, "", "", map[string]*parse.Tree{})
	if err != nil {
		return nil, err
	}
	p := &preparer{text: text, tree: tree}
	p.list(tree.Root)
	return p.errs, nil
}

// Verify refuses a rendered URL whose scheme, user, host or port is not the template's (unless
// a raw value writes them) or whose path holds a dot segment.
func (pl *Plan) Verify(rendered string) error {
	if pl == nil {
		return nil
	}
	u, err := url.Parse(rendered)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrChanged, err)
	}
	if pl.rawAuthority {
		return dotSegments(u)
	}
	user := ""
	if u.User != nil {
		user = u.User.String()
	}
	if !strings.EqualFold(u.Scheme, pl.scheme) || !strings.EqualFold(u.Host, pl.host) || user != pl.user {
		return fmt.Errorf("%w: it goes to %s://%s, the template to %s://%s", ErrChanged, u.Scheme, u.Host, pl.scheme, pl.host)
	}
	return dotSegments(u)
}

// dotSegments refuses a path with a `.` or `..` segment, written plain or percent-encoded.
func dotSegments(u *url.URL) error {
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if d := strings.ReplaceAll(strings.ToLower(seg), "%2e", "."); d == "." || d == ".." {
			return fmt.Errorf("%w: its path holds the segment %q, which a server resolves to another path", ErrDotSegment, seg)
		}
	}
	return nil
}

var escapers = func() map[string]any {
	fm := map[string]any{}
	for part, f := range map[Part]func(string) string{Path: url.PathEscape, Query: url.QueryEscape, Fragment: url.PathEscape} {
		fm[escaperPrefix+part.String()] = func(v any) string { return f(fmt.Sprint(v)) }
	}
	return fm
}()

type preparer struct {
	text string
	tree *parse.Tree
	// part is where the text so far ends; authority the literal text of the scheme and
	// authority so far; rawAuthority whether a raw value is in them.
	part         Part
	authority    strings.Builder
	rawAuthority bool
	errs         []*PlaceError
}

func (p *preparer) plan() *Plan {
	pl := &Plan{rawAuthority: p.rawAuthority}
	a := p.authority.String()
	if u, err := url.Parse(a); err == nil {
		pl.scheme, pl.host = u.Scheme, u.Host
		if u.User != nil {
			pl.user = u.User.String()
		}
	} else {
		pl.rawAuthority = true // nothing to compare with; the operation refuses a bad URL
	}
	return pl
}

func (p *preparer) fail(n parse.Node, format string, args ...any) {
	line, col := 1, 1
	if n != nil && int(n.Position()) <= len(p.text) {
		before := p.text[:n.Position()]
		line = strings.Count(before, "\n") + 1
		col = int(n.Position()) - strings.LastIndexByte(before, '\n')
		if i := strings.LastIndex(before, "{{"); i >= 0 && strings.Count(before[:i], "\n") == line-1 {
			col = i - strings.LastIndexByte(before[:i], '\n')
		}
	}
	p.errs = append(p.errs, &PlaceError{Line: line, Column: col, Err: fmt.Errorf(format, args...)})
}

func (p *preparer) list(l *parse.ListNode) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		p.node(n)
	}
}

func (p *preparer) node(n parse.Node) {
	switch x := n.(type) {
	case *parse.TextNode:
		p.literal(string(x.Text))
	case *parse.ActionNode:
		p.action(x)
	case *parse.IfNode:
		p.branches(x, &x.BranchNode)
	case *parse.WithNode:
		p.branches(x, &x.BranchNode)
	case *parse.RangeNode:
		p.branches(x, &x.BranchNode)
	case *parse.CommentNode, *parse.BreakNode, *parse.ContinueNode:
	default:
		p.fail(n, "%s is not supported in a URL template", n)
	}
}

// branches walks each body from the same part; all must end in the part they started from or
// in the same one, else the text after them has no single part.
func (p *preparer) branches(n parse.Node, b *parse.BranchNode) {
	start, auth := p.part, p.authority.String()
	p.list(b.List)
	end, endAuth := p.part, p.authority.String()
	if b.ElseList != nil {
		p.part = start
		p.authority.Reset()
		p.authority.WriteString(auth)
		p.list(b.ElseList)
	}
	// if/else rather than switch: go test -cover counts an if's condition but not a case's
	// expression, so mutation testing could not see the conditions tested.
	if p.part != end || (b.ElseList == nil || n.Type() == parse.NodeRange) && end != start {
		p.fail(n, "the branches of this {{%s}} end in different URL parts (%s, %s): write each part's ? or # outside it", keyword(n), start, end)
	} else if p.part == Authority && (endAuth != auth || p.authority.String() != auth) {
		p.fail(n, "this {{%s}} chooses the scheme, host or port: write them outside it", keyword(n))
	}
}

func keyword(n parse.Node) string {
	switch n.Type() {
	case parse.NodeRange:
		return "range"
	case parse.NodeWith:
		return "with"
	}
	return "if"
}

// literal moves the part along the template's own text.
func (p *preparer) literal(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch p.part {
		case Authority:
			a := p.authority.String()
			if (p.rawAuthority || strings.Contains(a, "://")) && (c == '/' || c == '?' || c == '#') {
				p.part = map[byte]Part{'/': Path, '?': Query, '#': Fragment}[c]
				continue
			}
			p.authority.WriteByte(c)
		case Path:
			if c == '?' {
				p.part = Query
			} else if c == '#' {
				p.part = Fragment
			}
		case Query:
			if c == '#' {
				p.part = Fragment
			}
		}
	}
}

// action appends the escaper of the current part to a printing action; a raw one is left as
// it is, and moves the part when it is in the authority (its text is unknown).
func (p *preparer) action(a *parse.ActionNode) {
	if len(a.Pipe.Decl) > 0 {
		return // {{$x := …}} prints nothing
	}
	raw := isRaw(a.Pipe)
	// if rather than switch, as in branches, so that coverage counts the conditions.
	if p.part == Authority && raw {
		p.rawAuthority = true
		return
	}
	if p.part == Authority {
		p.fail(a, "a value cannot choose the URL's scheme, host or port: write them in the template, or mark a value you trust {{%s …}}", RawName)
		return
	}
	if raw || lastCommand(a.Pipe) == "urlquery" {
		return // pasted on purpose, or already escaped for any part but the authority
	}
	name := escaperPrefix + p.part.String()
	id := parse.NewIdentifier(name).SetTree(p.tree).SetPos(a.Pos)
	a.Pipe.Cmds = append(a.Pipe.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: a.Pos, Args: []parse.Node{id}})
}

// isRaw reports whether a pipeline's last command is raw (`{{raw .x}}`, `{{.x | raw}}`).
func isRaw(pipe *parse.PipeNode) bool { return lastCommand(pipe) == RawName }

// lastCommand is the function a pipeline calls last, or "".
func lastCommand(pipe *parse.PipeNode) string {
	if len(pipe.Cmds) == 0 {
		return ""
	}
	last := pipe.Cmds[len(pipe.Cmds)-1]
	if id, ok := last.Args[0].(*parse.IdentifierNode); ok {
		return id.Ident
	}
	return ""
}
