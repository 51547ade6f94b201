package mcpbridge

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

// TraceMeta gives the W3C keys of the span in ctx, tracestate only when there is one, and
// nothing without a span.
func TestTraceMeta(t *testing.T) {
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ts, _ := trace.ParseTraceState("rojo=1,congo=t61rcWkgMzE")
	with := func(state trace.TraceState, flags trace.TraceFlags) context.Context {
		return trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: flags, TraceState: state}))
	}
	tests := []struct {
		name string
		ctx  context.Context
		want map[string]string
	}{
		{"no span", context.Background(), nil},
		{"sampled", with(trace.TraceState{}, trace.FlagsSampled), map[string]string{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}},
		{"not sampled, with state", with(ts, 0), map[string]string{
			"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", "tracestate": "rojo=1,congo=t61rcWkgMzE"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := TraceMeta(tc.ctx)
			if len(got) != len(tc.want) {
				t.Fatalf("TraceMeta = %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}
