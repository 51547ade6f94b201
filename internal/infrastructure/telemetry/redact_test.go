package telemetry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/awf-dev/awf/internal/domain/redact"
)

const secret = "Zq7-longValue/with+Symbols=9kLmN0pQ"

func TestExportedSpansAreMasked(t *testing.T) {
	mem := tracetest.NewInMemoryExporter()
	red := redact.New([]string{"DEPLOY_TOKEN=" + secret})
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(wrapExporter(mem, red)))
	_, span := tp.Tracer("t").Start(context.Background(), "tool.call "+secret,
		trace.WithAttributes(attribute.String("error", "tok="+secret[:10]+"…"), attribute.Int("n", 3),
			attribute.StringSlice("list", []string{"ok", secret}), attribute.String("plain", "kept")))
	span.RecordError(errors.New("failed: " + secret))
	span.AddEvent("retry "+secret, trace.WithAttributes(attribute.String("why", secret)))
	span.SetStatus(codes.Error, "status "+secret)
	span.End() // the syncer exports it now
	stubs := mem.GetSpans()
	if len(stubs) != 1 {
		t.Fatalf("%d spans", len(stubs))
	}
	text := fmt.Sprintf("%+v", stubs[0])
	for i := 0; i+redact.MinRun <= len(secret); i++ {
		if strings.Contains(text, secret[i:i+redact.MinRun]) {
			t.Fatalf("span leaks %q: %s", secret[i:i+redact.MinRun], text)
		}
	}
	s := stubs[0]
	if s.Name != "tool.call "+redact.Mask || s.Status.Description != "status "+redact.Mask || len(s.Events) != 2 {
		t.Errorf("name %q status %q events %d", s.Name, s.Status.Description, len(s.Events))
	}
	for _, kv := range s.Attributes {
		if kv.Key == "n" && kv.Value.AsInt64() != 3 || kv.Key == "plain" && kv.Value.AsString() != "kept" {
			t.Errorf("attribute changed: %v", kv)
		}
	}
	if wrapExporter(mem, nil) != sdktrace.SpanExporter(mem) {
		t.Error("a nil redactor must not wrap")
	}
}
