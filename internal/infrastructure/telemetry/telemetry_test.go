package telemetry

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

func TestNewExporterRejectsUnknownSettings(t *testing.T) {
	for _, env := range []map[string]string{
		{"OTEL_TRACES_EXPORTER": "zipkin"},
		{"OTEL_EXPORTER_OTLP_PROTOCOL": "carrier-pigeon"},
	} {
		if _, err := newExporter(context.Background(), func(k string) string { return env[k] }); err == nil {
			t.Errorf("%v accepted", env)
		}
	}
}

func TestTraceparentRoundTrip(t *testing.T) {
	const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	ctx := WithTraceparent(context.Background(), tp)
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() || !sc.IsRemote() || sc.TraceID().String() != "0af7651916cd43dd8448eb211c80319c" {
		t.Fatalf("span context %+v", sc)
	}
	if got := Traceparent(ctx); got != tp {
		t.Fatalf("Traceparent = %q", got)
	}
	if Traceparent(context.Background()) != "" || WithTraceparent(context.Background(), "") != context.Background() {
		t.Fatal("empty cases")
	}
}
