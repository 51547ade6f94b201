package routing

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// The names of the OpenTelemetry GenAI conventions a tool call's span carries
// (docs/reference/telemetry.md). semconv v1.41.0 is the last generated package that still has
// the GenAI and MCP names (later ones moved them to their own registry).
const (
	// executeToolSpan starts the name of every call's span: "execute_tool {gen_ai.tool.name}".
	executeToolSpan = "execute_tool "
	// errorTypeToolError is error.type for a call whose tool answered with isError, as the MCP
	// conventions say; the router's own failures carry their error code instead.
	errorTypeToolError = "tool_error"
)

// conventionAttributes are the GenAI attributes set as the call's span starts: the operation,
// the tool's name and, when the model gave one, the call's id.
func (r *Router) conventionAttributes(ctx context.Context, c *call) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 6)
	attrs = append(attrs, semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(c.name))
	if id := tool.CallIDFrom(ctx); id != "" {
		attrs = append(attrs, semconv.GenAIToolCallID(truncateString(r.opts.Redactor.String(id), maxToolName)))
	}
	if !r.opts.ConventionsOnly {
		attrs = append(attrs, attribute.String("awf.tool.name", c.name))
	}
	return append(attrs, attribute.String("awf.run.id", r.opts.RunID), attribute.String("awf.step", r.opts.Step))
}

// errorType is the call's error.type: tool_error when the tool answered with isError, else the
// code of the router's own failure (refusal, unknown tool, bad arguments, cancellation), else
// the conventions' _OTHER; "" for a success.
func errorType(c *call) string {
	switch {
	case c.outcome == activity.OutcomeSuccess:
		return ""
	case c.toolError:
		return errorTypeToolError
	case c.code != "":
		return c.code
	}
	return semconv.ErrorTypeOther.Value.AsString()
}
