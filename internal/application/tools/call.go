package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// call is what is known about one tool call as it goes through the router; finish turns it into
// the span attributes, the log line and the activity record.
type call struct {
	name    string
	source  tool.Source
	args    map[string]any
	intent  tool.Intent
	outcome activity.Outcome
	errText string
	stack   []byte // set when a panic was recovered
	start   time.Time
}

// fail marks the call failed with msg and returns msg as an error result for the agent.
func (c *call) fail(outcome activity.Outcome, msg string) tool.Result {
	c.outcome = outcome
	c.errText = msg
	return tool.Error(msg)
}

// CallTool runs one tool call: lookup, argument parsing, the policy, schema validation, dispatch.
// It never returns a Go error: every failure (unknown tool, bad arguments, refusal, a provider
// that failed or panicked, cancellation) is an IsError result whose text tells the model what
// went wrong and what to do, because that is what an agent can react to. Each call yields exactly
// one span, one log line and one activity record, whatever its outcome.
//
// Cancellation is cooperative: CallTool returns when the provider does, and providers are
// expected to honour ctx (the built-ins kill their process group, plugins cancel the RPC).
func (r *Router) CallTool(ctx context.Context, name string, args json.RawMessage) (res tool.Result) {
	// The name is the model's input: bound it before it becomes a span name and a log field.
	// Registered names are at most maxToolName bytes, so lookups are unaffected.
	c := &call{name: truncateString(name, 2*maxToolName), outcome: activity.OutcomeSuccess, start: r.opts.Now()}
	ctx, span := r.opts.Tracer.Start(ctx, "tool.call "+c.name,
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(
			attribute.String("awf.tool.name", c.name),
			attribute.String("awf.run.id", r.opts.RunID),
			attribute.String("awf.step", r.opts.Step),
		))
	defer func() { r.finish(ctx, span, c) }()
	defer func() {
		if p := recover(); p != nil {
			c.stack = debug.Stack()
			res = c.fail(activity.OutcomeError, fmt.Sprintf(
				"internal error in awf while calling tool %s: %v. This is an awf bug, not a problem with your call; please report it. The call was not completed.", c.name, p))
		}
	}()
	return r.dispatch(ctx, c, name, args)
}

// dispatch is CallTool without the instrumentation.
func (r *Router) dispatch(ctx context.Context, c *call, name string, raw json.RawMessage) tool.Result {
	if r.closed.Load() {
		return c.fail(activity.OutcomeError, fmt.Sprintf("tool %s cannot be called: the tool router is closed (the step has ended)", c.name))
	}
	e, ok := r.entries[name]
	if !ok {
		return c.fail(activity.OutcomeError, r.notFound(c.name))
	}
	c.source = e.def.Source
	dispatchArgs, args, msg := parseArgs(raw)
	if msg != "" {
		return c.fail(activity.OutcomeError, fmt.Sprintf("invalid arguments for %s: %s", c.name, msg))
	}
	c.args = args

	d := r.opts.Policy.Decide(e.def, CallInfo{Tool: c.name, Args: args})
	c.intent = d.Intent
	if !d.Allow {
		msg := d.Message
		if msg == "" {
			msg = fmt.Sprintf("tool %s was refused by the step's tool policy", c.name)
		}
		return c.fail(activity.OutcomeRefused, msg)
	}
	if msg := validateArgs(e.schema, args); msg != "" {
		return c.fail(activity.OutcomeError, fmt.Sprintf("invalid arguments for %s: %s", c.name, msg))
	}
	if err := ctx.Err(); err != nil {
		return c.fail(activity.OutcomeError, cancelledMessage(c.name, err))
	}

	res, err := e.provider.CallTool(ctx, name, dispatchArgs)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return c.fail(activity.OutcomeError, cancelledMessage(c.name, cerr))
		}
		return c.fail(activity.OutcomeError, fmt.Sprintf("%s failed: %v", c.source, err))
	}
	if res.Content == nil {
		res.Content = []tool.Content{} // MCP wants an array, never null
	}
	if res.IsError {
		c.outcome = activity.OutcomeError
		c.errText = res.JoinedText()
	}
	return res
}

func cancelledMessage(name string, err error) string {
	return fmt.Sprintf("cancelled: the call to %s was stopped before it finished (%v)", name, err)
}

// notFound explains an unknown tool name, with the likely intended one and the list to pick from.
func (r *Router) notFound(name string) string {
	msg := fmt.Sprintf("tool %s not found", name)
	if c := closest(name, r.order); c != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", c)
	}
	return msg + "; available tools: " + listNames(r.order)
}
