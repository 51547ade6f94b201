package routing

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// call is what is known about one tool call as it goes through the router; finish turns it into
// the span attributes, the log line and the activity record.
type call struct {
	name   string
	source tool.Source
	args   map[string]any
	intent tool.Intent
	code   string // the code of a refusal, an error or a policy warning
	// toolVariant is the tool's own variant (CallWith of its annotations), known once the
	// tool is found; recorded beside the declared one.
	toolVariant tool.Variant
	outcome     activity.Outcome
	errText     string
	stack       []byte // set when a panic was recovered
	start       time.Time
	sandbox     *tool.Confinement     // how the provider confined the call, when it says
	content     []tool.ContentSummary // the result's non-text blocks (bridged MCP servers only)
	toolError   bool                  // the tool itself answered with isError
	approval    *activity.Approval    // the decision on a call held for approval
}

// callOptions is how one call is judged: by which policy, with what declared, and which tools
// the caller can see (for the suggestions of a not-found message).
type callOptions struct {
	policy   Policy
	declared tool.Declaration
	visible  func(tool.Definition) bool // nil: every tool
}

// fail marks the call failed with msg and code and returns msg as an error result for the
// agent. A refusal keeps the policy's code when code is empty.
func (c *call) fail(outcome activity.Outcome, code, msg string) tool.Result {
	c.outcome = outcome
	if code != "" {
		c.code = code
	}
	c.errText = msg
	return tool.Error(msg)
}

// CallTool runs one tool call: lookup, argument parsing, the policy, schema validation, dispatch.
// It never returns a Go error: every failure (unknown tool, bad arguments, refusal, a provider
// that failed or panicked, cancellation) is an IsError result whose text tells the model what
// went wrong and what to do, because that is what an agent can react to. Each call yields exactly
// one span, one log line and one activity record, whatever its outcome.
//
// It is a direct call: nothing is declared and the variant is the tool's CallWith. Cancellation
// is cooperative: CallTool returns when the provider does, and providers are expected to honour
// ctx (the built-ins kill their process group, plugins cancel the RPC).
func (r *Router) CallTool(ctx context.Context, name string, args json.RawMessage) tool.Result {
	return r.invoke(ctx, name, args, callOptions{policy: r.opts.Policy})
}

// CallWithIntent is CallTool for a call that came through a variant and may carry a declared
// intent (split mode, `awf call tool-read`). The declaration goes to the Policy, which judges it
// against the tool's annotations as they are now, and is recorded whatever the decision.
func (r *Router) CallWithIntent(ctx context.Context, name string, args json.RawMessage, declared tool.Declaration) tool.Result {
	return r.invoke(ctx, name, args, callOptions{policy: r.opts.Policy, declared: declared})
}

// invoke instruments one call and runs it with the given options.
func (r *Router) invoke(ctx context.Context, name string, args json.RawMessage, o callOptions) (res tool.Result) {
	c, ctx, span := r.begin(ctx, name)
	defer func() { r.finish(ctx, span, c) }()
	defer func() {
		if p := recover(); p != nil {
			c.stack = debug.Stack()
			res = c.fail(activity.OutcomeError, fault.SystemToolPanic, fmt.Sprintf(
				"internal error in awf while calling tool %s: %v. This is an awf bug, not a problem with your call; please report it. The call was not completed.", c.name, p))
		}
	}()
	return r.dispatch(ctx, c, name, args, o)
}

// internalSpan are the options of every call's span, made once.
var internalSpan = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindInternal)}

// begin starts the span of one call. The name is the model's input: it is bounded before it
// becomes a span name and a log field (registered names are at most maxToolName bytes, so
// lookups are unaffected).
func (r *Router) begin(ctx context.Context, name string) (*call, context.Context, trace.Span) {
	c := &call{name: truncateString(r.opts.Redactor.String(name), 2*maxToolName), outcome: activity.OutcomeSuccess, start: r.opts.Now()}
	spanName := ""
	if e, ok := r.cat.Load().entries[c.name]; ok && c.name == name {
		spanName = e.spanName // a tool's own name, neither masked nor cut
	} else {
		spanName = executeToolSpan + c.name
	}
	sctx, span := r.opts.Tracer.Start(ctx, spanName, internalSpan...)
	if span.IsRecording() { // telemetry off: no attribute is built for a span nobody keeps
		span.SetAttributes(r.conventionAttributes(ctx, c)...)
	}
	return c, sctx, span
}

// dispatch is CallTool without the instrumentation.
func (r *Router) dispatch(ctx context.Context, c *call, name string, raw json.RawMessage, o callOptions) tool.Result {
	if r.closed.Load() {
		return c.fail(activity.OutcomeError, fault.SystemMCPProxyClosed, fmt.Sprintf("tool %s cannot be called: the tool router is closed (the step has ended)", c.name))
	}
	cat := r.cat.Load()
	e, ok := cat.entries[name]
	if !ok {
		c.intent.Variant = o.declared.Variant
		return c.fail(activity.OutcomeError, fault.UserToolNotFound, cat.notFound(c.name, o.visible))
	}
	c.source = e.def.Source
	c.toolVariant = tool.CallWith(e.def.Annotations)
	dispatchArgs, args, msg := parseArgs(raw)
	if msg != "" {
		return c.fail(activity.OutcomeError, fault.UserToolInvalidArgs, fmt.Sprintf("invalid arguments for %s: %s", c.name, msg))
	}
	c.args = args

	info := CallInfo{Tool: c.name, Args: args, Declared: o.declared}
	var d Decision
	if cp, ok := o.policy.(contextPolicy); ok {
		d = cp.DecideContext(ctx, e.def, info)
	} else {
		d = o.policy.Decide(e.def, info)
	}
	c.intent = d.Intent
	c.approval = d.Approval
	c.code = d.Code
	if !d.Allow {
		msg := d.Message
		if msg == "" {
			msg = fmt.Sprintf("tool %s was refused by the step's tool policy", c.name)
		}
		if c.code == "" {
			c.code = fault.UserIntentNotAllowed
		}
		return c.fail(activity.OutcomeRefused, "", msg)
	}
	rs, err := e.compiledSchema()
	if err != nil {
		return c.fail(activity.OutcomeError, fault.UserMCPProxyInvalidSchema, fmt.Sprintf("tool %s cannot be called: its input schema cannot be used: %v", c.name, err))
	}
	if msg := validateArgs(rs, args); msg != "" {
		return c.fail(activity.OutcomeError, fault.UserToolInvalidArgs, fmt.Sprintf("invalid arguments for %s: %s", c.name, msg))
	}
	if err := ctx.Err(); err != nil {
		return c.fail(activity.OutcomeError, fault.ExecutionToolCancelled, cancelledMessage(c.name, err))
	}

	res, err := e.provider.CallTool(tool.WithVariant(ctx, c.intent.Variant), name, dispatchArgs)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return c.fail(activity.OutcomeError, fault.ExecutionToolCancelled, cancelledMessage(c.name, cerr))
		}
		code := fault.CodeOf(err)
		if code == "" {
			code = fault.ExecutionToolFailed
		}
		return c.fail(activity.OutcomeError, code, fmt.Sprintf("%s failed: %v", c.source, err))
	}
	if res.Content == nil {
		res.Content = []tool.Content{} // MCP wants an array, never null
	}
	c.sandbox = res.Confinement
	c.content = res.Summaries()
	if res.IsError {
		c.toolError = true
		c.outcome = activity.OutcomeError
		c.code = fault.ExecutionToolFailed
		c.errText = res.JoinedText()
	}
	return res
}

func cancelledMessage(name string, err error) string {
	return fmt.Sprintf("cancelled: the call to %s was stopped before it finished (%v)", name, err)
}

// notFound explains an unknown tool name, with the likely intended one and the list to pick
// from, both limited to the tools the caller can see.
func (cat *catalog) notFound(name string, visible func(tool.Definition) bool) string {
	names := cat.order
	if visible != nil {
		names = make([]string, 0, len(cat.order))
		for _, n := range cat.order {
			if visible(cat.entries[n].def) {
				names = append(names, n)
			}
		}
	}
	msg := fmt.Sprintf("tool %s not found", name)
	if c := closest(name, names); c != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", c)
	}
	return msg + "; available tools: " + listNames(names)
}
