package workflow

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template/parse"
)

// Ref is one reference to the interpolation data found in a template, such as .inputs.target
// or $.states.build.Output. Only references whose root is known statically are reported: a
// field read inside {{with}} or {{range}}, where dot has moved, is not.
type Ref struct {
	// Path is the field chain from the data root: ["states", "build", "Output"].
	Path []string
	// Offset is the byte offset of the reference in the template text; Line counts from 1.
	Offset int
	Line   int
}

// String renders the reference as written from the root, ".states.build.Output".
func (r Ref) String() string { return "." + strings.Join(r.Path, ".") }

// TemplateError is a template that does not parse. Line counts from 1 within the template.
type TemplateError struct {
	Line int
	Msg  string
}

// Error names the template line when the template spans several.
func (e *TemplateError) Error() string {
	if e.Line > 1 {
		return "line " + strconv.Itoa(e.Line) + " of the template: " + e.Msg
	}
	return e.Msg
}

// templateName is the name given to parsed templates; it appears in parse errors, which
// TemplateRefs strips.
const templateName = "awf"

// parseErrRE reads the line and message out of a parse error; compiled on the first error,
// since most runs never see one.
var parseErrRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^template: ` + templateName + `:(\d+): (.*)$`)
})

// TemplateRefs parses text as a Go text/template and returns its data references in source
// order. Functions are not checked (the runner decides which exist); only the shape of the
// data is. A syntax error is returned as a *TemplateError.
//
// The runner can use it to see which step outputs a command needs; validation uses it to check
// each reference against the inputs and states the workflow declares.
func TemplateRefs(text string) ([]Ref, error) {
	if !strings.Contains(text, "{{") {
		return nil, nil // the common case: no action at all
	}
	t := parse.New(templateName)
	t.Mode = parse.SkipFuncCheck
	tree, err := t.Parse(text, "", "", map[string]*parse.Tree{})
	if err != nil {
		return nil, toTemplateError(err)
	}
	w := refWalker{text: text}
	if tree.Root != nil {
		w.list(tree.Root, true)
	}
	return w.refs, nil
}

func toTemplateError(err error) error {
	msg := err.Error()
	if m := parseErrRE().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &TemplateError{Line: line, Msg: m[2]}
	}
	return &TemplateError{Line: 1, Msg: msg}
}

// refWalker collects references. rooted tells whether dot is still the data root at the node
// being walked.
type refWalker struct {
	text string
	refs []Ref
}

// add records a reference written as written (".inputs.a" or "$.inputs.a"). The parser puts
// pos at the last field of the chain, so the start is found by measuring back from its end.
func (w *refWalker) add(path []string, written string, pos parse.Pos) {
	off := min(int(pos), len(w.text))
	end := off + len(path[len(path)-1]) + 1
	if start := end - len(written); start >= 0 && end <= len(w.text) && w.text[start:end] == written {
		off = start
	}
	w.refs = append(w.refs, Ref{
		Path:   append([]string(nil), path...),
		Offset: off,
		Line:   1 + strings.Count(w.text[:off], "\n"),
	})
}

func (w *refWalker) list(l *parse.ListNode, rooted bool) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		w.node(n, rooted)
	}
}

func (w *refWalker) node(n parse.Node, rooted bool) {
	switch n := n.(type) {
	case *parse.ActionNode:
		w.pipe(n.Pipe, rooted)
	case *parse.IfNode:
		w.branch(&n.BranchNode, rooted, rooted)
	case *parse.RangeNode:
		w.branch(&n.BranchNode, false, rooted)
	case *parse.WithNode:
		w.branch(&n.BranchNode, false, rooted)
	case *parse.TemplateNode:
		w.pipe(n.Pipe, rooted)
	case *parse.ListNode:
		w.list(n, rooted)
	}
}

// branch walks an if/range/with: the pipeline sees the current dot, the body sees bodyRooted,
// the else branch keeps the current dot.
func (w *refWalker) branch(b *parse.BranchNode, bodyRooted, rooted bool) {
	w.pipe(b.Pipe, rooted)
	w.list(b.List, bodyRooted)
	w.list(b.ElseList, rooted)
}

func (w *refWalker) pipe(p *parse.PipeNode, rooted bool) {
	if p == nil {
		return
	}
	for _, c := range p.Cmds {
		for _, arg := range c.Args {
			w.arg(arg, rooted)
		}
	}
}

func (w *refWalker) arg(n parse.Node, rooted bool) {
	switch n := n.(type) {
	case *parse.FieldNode:
		if rooted {
			w.add(n.Ident, "."+strings.Join(n.Ident, "."), n.Pos)
		}
	case *parse.VariableNode:
		// $ is the data root wherever it is used; other variables hold values we cannot type.
		if len(n.Ident) > 1 && n.Ident[0] == "$" {
			w.add(n.Ident[1:], strings.Join(n.Ident, "."), n.Pos)
		}
	case *parse.ChainNode:
		// {{inputs.x}}: a namespace named without its dot, then fields.
		if id, ok := n.Node.(*parse.IdentifierNode); ok && slices.Contains(TemplateRoots, id.Ident) {
			w.add(append([]string{id.Ident}, n.Field...), id.Ident+"."+strings.Join(n.Field, "."), n.Pos)
			return
		}
		w.arg(n.Node, rooted)
	case *parse.PipeNode:
		w.pipe(n, rooted)
	}
}
