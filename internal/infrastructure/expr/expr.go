// Package expr compiles and evaluates workflow expressions (`when`, `break_when`, `while`, a
// dynamic `max_iterations`) with expr-lang/expr, the language the reference awf uses, so users'
// expressions mean the same thing here. It implements ports.ExprCompiler.
//
// Differences from a bare expr-lang setup, each for a reason:
//   - only the workflow's namespaces are names (inputs, states, env, workflow, loop, error,
//     context): `input.x` is a compile error at validate time instead of a silent nil;
//   - the reference's function-call spellings contains(a, b), has_prefix(a, b) and
//     has_suffix(a, b) are functions, so expressions written for it compile unchanged;
//   - programs are bounded in size (MaxNodes) so a crafted expression cannot exhaust memory.
package expr

import (
	"errors"
	"fmt"
	"math"

	exprlang "github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// Namespaces are the top-level names an expression may read.
var Namespaces = []string{"inputs", "states", "env", "workflow", "loop", "error", "context"}

// maxNodes bounds a compiled expression; real conditions have tens of nodes.
const maxNodes = 10000

// Compiler implements ports.ExprCompiler. The zero value is ready to use and safe for
// concurrent use.
type Compiler struct{}

var _ ports.ExprCompiler = Compiler{}

// Compile checks syntax, names and, where the types are known, the result type.
func (Compiler) Compile(src string, kind ports.ExprKind) (ports.Expression, error) {
	if src == "" {
		return nil, &ports.ExprError{Message: "the expression is empty"}
	}
	rewritten := rewriteCalls(src)
	opts := []exprlang.Option{exprlang.Env(shapeEnv()), exprlang.MaxNodes(maxNodes)}
	opts = append(opts, functions()...)
	if kind == ports.ExprBool {
		opts = append(opts, exprlang.AsBool())
	}
	prog, err := exprlang.Compile(rewritten, opts...)
	if err != nil {
		return nil, toExprError(err)
	}
	return &expression{src: src, prog: prog, refs: refs(prog.Node()), kind: kind}, nil
}

// shapeEnv tells the type checker which names exist; their contents are only known at run time.
func shapeEnv() map[string]any {
	env := make(map[string]any, len(Namespaces))
	for _, n := range Namespaces {
		env[n] = map[string]any{}
	}
	return env
}

type expression struct {
	src  string
	prog *vm.Program
	refs []ports.ExprRef
	kind ports.ExprKind
}

func (e *expression) Source() string        { return e.src }
func (e *expression) Refs() []ports.ExprRef { return e.refs }

func (e *expression) run(vars map[string]any) (any, error) {
	env := shapeEnv()
	for k, v := range vars {
		env[k] = v
	}
	out, err := exprlang.Run(e.prog, env)
	if err != nil {
		return nil, toExprError(err)
	}
	return out, nil
}

func (e *expression) Bool(vars map[string]any) (bool, error) {
	out, err := e.run(vars)
	if err != nil {
		return false, err
	}
	b, ok := out.(bool)
	if !ok {
		return false, &ports.ExprError{Message: fmt.Sprintf("expression %q gave %T %v, not true or false", e.src, out, out)}
	}
	return b, nil
}

func (e *expression) Int(vars map[string]any) (int, error) {
	out, err := e.run(vars)
	if err != nil {
		return 0, err
	}
	switch v := out.(type) {
	case int:
		return e.bounded(int64(v))
	case int64:
		return e.bounded(v)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
			return 0, &ports.ExprError{Message: fmt.Sprintf("expression %q gave %v, not a whole number", e.src, v)}
		}
		return int(v), nil
	}
	return 0, &ports.ExprError{Message: fmt.Sprintf("expression %q gave %T %v, not a number", e.src, out, out)}
}

// bounded keeps counts within 32 bits: anything larger is a mistake, never a loop bound.
func (e *expression) bounded(v int64) (int, error) {
	if v > math.MaxInt32 || v < math.MinInt32 {
		return 0, &ports.ExprError{Message: fmt.Sprintf("expression %q gave %d, out of range", e.src, v)}
	}
	return int(v), nil
}

// toExprError keeps the position expr-lang found, 1-based.
func toExprError(err error) error {
	var fe *file.Error
	if errors.As(err, &fe) {
		return &ports.ExprError{Line: fe.Line, Column: fe.Column + 1, Message: fe.Message}
	}
	return &ports.ExprError{Message: err.Error()}
}

// refs collects the member chains rooted at a namespace (states.build.ExitCode, and
// states["build"].Output alike), the longest per place, in source order.
func refs(root ast.Node) []ports.ExprRef {
	c := &collector{longest: map[int][]string{}}
	ast.Walk(&root, c)
	out := make([]ports.ExprRef, 0, len(c.order))
	for _, off := range c.order {
		out = append(out, ports.ExprRef{Path: c.longest[off], Offset: off})
	}
	return out
}

type collector struct {
	longest map[int][]string
	order   []int
}

// Visit records every chain; chains of one root share its offset, so the longest one wins.
func (c *collector) Visit(n *ast.Node) {
	path, root, ok := chain(*n)
	if !ok || !isNamespace(path[0]) {
		return
	}
	off := root.Location().From
	prev, seen := c.longest[off]
	if !seen {
		c.order = append(c.order, off)
	}
	if len(path) > len(prev) {
		c.longest[off] = path
	}
}

func isNamespace(name string) bool {
	for _, n := range Namespaces {
		if n == name {
			return true
		}
	}
	return false
}

// chain returns the names of a member chain rooted at an identifier, and that identifier.
func chain(n ast.Node) (path []string, root ast.Node, ok bool) {
	switch v := n.(type) {
	case *ast.IdentifierNode:
		return []string{v.Value}, v, true
	case *ast.MemberNode:
		prop, isStr := v.Property.(*ast.StringNode)
		if !isStr {
			return nil, nil, false
		}
		base, root, ok := chain(v.Node)
		if !ok {
			return nil, nil, false
		}
		return append(base[:len(base):len(base)], prop.Value), root, true
	}
	return nil, nil, false
}
