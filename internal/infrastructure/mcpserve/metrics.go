package mcpserve

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
)

// serverDuration is the mcp.server.operation.duration histogram of the agent's tools/call
// requests (docs/reference/telemetry.md), made on first use from the global meter provider:
// a no-op unless the process installed one.
var serverDuration = sync.OnceValue(func() mcpconv.ServerOperationDuration {
	h, _ := mcpconv.NewServerOperationDuration(otel.Meter("awf/mcp-serve")) // an error still gives a no-op instrument
	return h
})

// recordCall records how long the router took to answer one tools/call of the agent, with
// error.type tool_error when the answer is an isError result. Served over stdio: pipe.
func recordCall(ctx context.Context, name string, start time.Time, isError bool) {
	h := serverDuration()
	if !h.Enabled(ctx) {
		return
	}
	attrs := make([]attribute.KeyValue, 0, 4)
	attrs = append(attrs, semconv.GenAIToolName(name), semconv.GenAIOperationNameExecuteTool, semconv.NetworkTransportPipe)
	if isError {
		attrs = append(attrs, semconv.ErrorTypeKey.String("tool_error"))
	}
	h.Record(context.WithoutCancel(ctx), time.Since(start).Seconds(), mcpconv.MethodNameToolsCall, attrs...)
}
