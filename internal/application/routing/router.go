package routing

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// tracerName names the instrumentation scope of tool-call spans.
const tracerName = "awf/tools"

// Options configure a Router. The zero value works: no logs, no records, spans only if a global
// tracer provider is installed, every call allowed.
type Options struct {
	// Logger receives one line per call. nil → zap.NewNop().
	Logger *zap.Logger
	// Tracer starts one span per call. nil → otel.Tracer("awf/tools"), a no-op unless a global
	// provider is set, so an unconfigured run pays nothing.
	Tracer trace.Tracer
	// Activity receives one record per call. nil → no records.
	Activity ports.ActivitySink
	// Policy decides each call (the intent rule). nil → AllowAll.
	Policy Policy
	// RunID and Step are copied into every span, log line and record.
	RunID, Step string
	// Now is the clock, replaceable in tests. nil → time.Now.
	Now func() time.Time
	// Redactor masks secrets in the tool name, arguments, error and intent texts before they
	// reach the span, the log line or the record, and before they are truncated, so a cut
	// secret is masked too. nil masks nothing.
	Redactor *redact.Redactor
	// ConventionsOnly drops the awf.* span attributes that the OpenTelemetry GenAI conventions
	// replaced (awf.tool.name beside gen_ai.tool.name, the error text beside error.type): set
	// when OTEL_SEMCONV_STABILITY_OPT_IN lists gen_ai_latest_experimental, as the SDKs' own
	// instrumentations do (docs/reference/telemetry.md). Unset, both names are written.
	ConventionsOnly bool
}

// entry is one registered tool: its definition, who serves it and its compiled input schema.
type entry struct {
	def      tool.Definition
	provider ports.ToolProvider
	schema   *jsonschema.Resolved
	lazy     *lazySchema // set instead of schema when compilation waits for the first call
	spanName string      // "execute_tool <name>", made once
}

// catalog is one consistent view of the registered tools. A call reads the catalog once, so it
// sees one definition of its tool from lookup to dispatch even while Refresh swaps in a new one.
type catalog struct {
	order   []string // tool names in registration order
	entries map[string]*entry
}

// Router aggregates tool providers behind one name space and is the single dispatch point for
// tool calls (see the package doc). Its providers are fixed at NewRouter; their definitions are
// re-read only by Refresh. It is safe for concurrent use.
type Router struct {
	opts      Options
	cat       atomic.Pointer[catalog]
	providers []ports.ToolProvider

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

// NewRouter lists the tools of every provider, compiles their input schemas and checks that no
// name is served twice. Every problem is reported at once: all collisions in one
// USER.MCP_PROXY.NAME_COLLISION error, all unusable schemas in one USER.MCP_PROXY.INVALID_SCHEMA
// error (joined when both occur). Collisions are never checked at call time: a router that exists
// has a unique name space.
//
// The router takes ownership of the providers: Close closes them, and when NewRouter fails it
// closes them itself, so plugin processes never outlive a failed start.
func NewRouter(ctx context.Context, opts Options, providers ...ports.ToolProvider) (*Router, error) {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.Tracer == nil {
		opts.Tracer = otel.Tracer(tracerName)
	}
	if opts.Policy == nil {
		opts.Policy = AllowAll{}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	r := &Router{opts: opts, providers: providers}
	cat, err := r.register(ctx)
	if err != nil {
		if cerr := r.Close(); cerr != nil {
			opts.Logger.Warn("closing tool providers after a failed registration", zap.Error(cerr))
		}
		return nil, err
	}
	r.cat.Store(cat)
	return r, nil
}

// Refresh lists every provider's tools again and, when the new name space is valid under the
// same rules as NewRouter, replaces the current one; otherwise it keeps the current one and
// returns the error. It exists because a plugin may change its tools or their annotations while
// a step runs: the intent rule must judge a call by the annotations the tool has when it is
// called, not by what the agent saw when it listed the tools. Calls in flight finish with the
// definitions they started with.
func (r *Router) Refresh(ctx context.Context) error {
	if r.closed.Load() {
		return fault.New(fault.SystemMCPProxyClosed, "cannot refresh the tools: the tool router is closed (the step has ended)")
	}
	cat, err := r.register(ctx)
	if err != nil {
		return err
	}
	r.cat.Store(cat)
	return nil
}

// ListTools returns every tool definition in registration order (providers in the order given,
// each provider's tools in the order it listed them), so tools/list is stable between runs.
func (r *Router) ListTools() []tool.Definition {
	cat := r.cat.Load()
	out := make([]tool.Definition, 0, len(cat.order))
	for _, name := range cat.order {
		out = append(out, cat.entries[name].def)
	}
	return out
}

// Lookup returns the current definition of the tool called name.
func (r *Router) Lookup(name string) (tool.Definition, bool) {
	e, ok := r.cat.Load().entries[name]
	if !ok {
		return tool.Definition{}, false
	}
	return e.def, true
}

// Close closes every provider (stopping plugin processes), then the activity sink when it has a
// Close method, and returns their errors joined, each naming its provider. It is idempotent; calls made after Close get an error result.
func (r *Router) Close() error {
	r.closeOnce.Do(func() {
		r.closed.Store(true)
		var errs []error
		for i, p := range r.providers {
			if err := p.Close(); err != nil {
				errs = append(errs, fmt.Errorf("closing %s: %w", providerLabel(p, i), err))
			}
		}
		if c, ok := r.opts.Activity.(interface{ Close() error }); ok {
			if err := c.Close(); err != nil {
				errs = append(errs, fmt.Errorf("closing the activity sink: %w", err))
			}
		}
		r.closeErr = errors.Join(errs...)
	})
	return r.closeErr
}

// Sourced is optionally implemented by a ToolProvider to name itself before its tools are
// listed, so that an error from ListTools or Close can say which provider failed.
type Sourced interface {
	Source() tool.Source
}

// providerLabel names provider i for messages: its Source if it has one, else its position.
func providerLabel(p ports.ToolProvider, i int) string {
	if s, ok := p.(Sourced); ok && s.Source() != "" {
		return string(s.Source())
	}
	return fmt.Sprintf("tool provider #%d", i+1)
}
