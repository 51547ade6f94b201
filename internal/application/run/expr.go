package run

import (
	"sync"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

// exprCache compiles each expression of a run once; validation already proved they compile.
type exprCache struct {
	compiler ports.ExprCompiler
	mu       sync.Mutex
	compiled map[string]ports.Expression
}

// holds evaluates a condition. An error that is not a *ports.ExprError means the engine cannot
// evaluate expressions at all.
func (c *exprCache) holds(src string, vars map[string]any) (bool, error) {
	e, err := c.get(src)
	if err != nil {
		return false, err
	}
	return e.Bool(vars)
}

func (c *exprCache) get(src string) (ports.Expression, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.compiled[src]; ok {
		return e, nil
	}
	if c.compiler == nil {
		return nil, fault.New(fault.SystemRunSetup, "this run has transitions with `when` but no expression compiler is wired")
	}
	e, err := c.compiler.Compile(src, ports.ExprBool)
	if err != nil {
		return nil, err
	}
	if c.compiled == nil {
		c.compiled = map[string]ports.Expression{}
	}
	c.compiled[src] = e
	return e, nil
}
