package routing

import (
	"errors"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

// VerifiedSchemas is optionally implemented by a ToolProvider whose input schemas are constants
// of its own code, compiled by its tests (see Router.CompileSchemas). The router then compiles
// each of them on the tool's first call instead of at registration: `awf mcp-serve` is spawned
// for every agent step, and resolving the six built-in schemas is most of its start-up work
// after the runtime's. Schemas from any other provider (plugins) are still compiled, and
// refused, at registration.
type VerifiedSchemas interface {
	SchemasVerified() bool
}

func schemasVerified(p ports.ToolProvider) bool {
	v, ok := p.(VerifiedSchemas)
	return ok && v.SchemasVerified()
}

// lazySchema is the compiled schema of one entry, made at most once.
type lazySchema struct {
	once     sync.Once
	resolved *jsonschema.Resolved
	err      error
}

// compiledSchema returns the entry's compiled schema, compiling it on first use when
// registration deferred it.
func (e *entry) compiledSchema() (*jsonschema.Resolved, error) {
	if e.schema != nil || e.lazy == nil {
		return e.schema, nil
	}
	e.lazy.once.Do(func() {
		_, e.lazy.resolved, e.lazy.err = compileSchema(e.def.InputSchema)
	})
	return e.lazy.resolved, e.lazy.err
}

// CompileSchemas compiles every schema registration deferred and reports those that cannot be
// used, as registration would have. It exists for the tests of providers that implement
// VerifiedSchemas, which is the promise that this returns nil for them.
func (r *Router) CompileSchemas() error {
	cat := r.cat.Load()
	var errs []error
	for _, name := range cat.order {
		e := cat.entries[name]
		if _, err := e.compiledSchema(); err != nil {
			errs = append(errs, fmt.Errorf("tool %q from %s has an input schema awf cannot use: %w", name, e.def.Source, err))
		}
	}
	if len(errs) > 0 {
		return fault.Wrap(errors.Join(errs...), fault.UserMCPProxyInvalidSchema, "%v", errors.Join(errs...))
	}
	return nil
}
