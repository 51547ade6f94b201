package mcpbridge

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// scope names the instrumentation scope of the MCP client's spans and metrics.
const scope = "awf/mcpbridge"

// TraceMeta is the W3C trace context (traceparent, and tracestate when there is one) of the
// span in ctx, as the MCP conventions put it in a request's params._meta so the server's spans
// join the caller's trace (docs/reference/telemetry.md); nil when ctx carries no span. Both
// call paths (the SDK's and the raw accelerator's) write exactly these keys.
func TraceMeta(ctx context.Context) map[string]string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return nil
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier
}

// clientDuration is the mcp.client.operation.duration histogram, made on first use from the
// global meter provider.
var clientDuration = sync.OnceValue(func() mcpconv.ClientOperationDuration {
	h, _ := mcpconv.NewClientOperationDuration(otel.Meter(scope)) // an error still gives a no-op instrument
	return h
})

// clientCall is the MCP client span and the duration measurement of one tools/call.
type clientCall struct {
	span     trace.Span
	start    time.Time
	measured bool                 // the histogram is enabled
	attrs    []attribute.KeyValue // shared by the span and the histogram; nil when neither is kept
}

// clientSpan are the options of every client span, made once.
var clientSpan = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindClient)}

// startCall starts the CLIENT span "tools/call {tool}" with the MCP conventions' attributes, a
// child of the router's execute_tool span in ctx; the returned ctx carries it, so the trace
// context sent in _meta names it as the server's parent. With tracing and metrics off no
// attribute is built.
func (s *Server) startCall(ctx context.Context, sess *mcp.ClientSession, name string) (context.Context, clientCall) {
	c := clientCall{start: time.Now()}
	ctx, c.span = otel.Tracer(scope).Start(ctx, "tools/call "+name, clientSpan...)
	c.measured = clientDuration().Enabled(ctx)
	if !c.span.IsRecording() && !c.measured {
		return ctx, c
	}
	c.attrs = append(make([]attribute.KeyValue, 0, 8),
		semconv.McpMethodNameToolsCall, semconv.GenAIToolName(name), semconv.GenAIOperationNameExecuteTool)
	if s.overHTTP.Load() {
		c.attrs = append(c.attrs, semconv.NetworkTransportTCP)
	} else {
		c.attrs = append(c.attrs, semconv.NetworkTransportPipe)
	}
	if sess != nil {
		if id := sess.ID(); id != "" {
			c.attrs = append(c.attrs, semconv.McpSessionID(id))
		}
		if init := sess.InitializeResult(); init != nil && init.ProtocolVersion != "" {
			c.attrs = append(c.attrs, semconv.McpProtocolVersion(init.ProtocolVersion))
		}
	}
	if c.span.IsRecording() {
		c.span.SetAttributes(c.attrs...)
		c.span.SetAttributes(attribute.String("awf.plugin", s.cfg.Name))
	}
	return ctx, c
}

// end closes the span and records the call's duration: error.type is tool_error for an
// isError result, the JSON-RPC error code for an error answer, timeout or cancelled when the
// call was stopped, _OTHER for anything else (a crash, a closed connection).
func (c *clientCall) end(ctx, cctx context.Context, res tool.Result, err error) {
	if c.attrs == nil { // neither the span nor the histogram is kept
		c.span.End()
		return
	}
	errType, status := "", ""
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil && res.IsError:
		errType, status = "tool_error", "the tool answered with isError"
	case err == nil:
	case errors.As(err, &rpcErr):
		errType, status = strconv.FormatInt(rpcErr.Code, 10), rpcErr.Message
		c.span.SetAttributes(semconv.RPCResponseStatusCode(errType))
	case ctx.Err() != nil:
		errType, status = "cancelled", ctx.Err().Error()
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		errType, status = "timeout", "call_timeout reached"
	default:
		errType, status = semconv.ErrorTypeOther.Value.AsString(), err.Error()
	}
	attrs := c.attrs
	if errType != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(errType))
		c.span.SetAttributes(semconv.ErrorTypeKey.String(errType))
		c.span.SetStatus(codes.Error, status)
	}
	c.span.End()
	if c.measured {
		clientDuration().Record(context.WithoutCancel(ctx), time.Since(c.start).Seconds(), mcpconv.MethodNameToolsCall, attrs[1:]...) // [0] is mcp.method.name, which Record adds
	}
}
