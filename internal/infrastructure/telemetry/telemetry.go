// Package telemetry sets up OpenTelemetry tracing from the standard OTEL_* environment variables.
// With nothing configured it installs nothing, so tracing costs a no-op call per span.
package telemetry

import (
	"context"
	"os"
	"strings"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// Enabled reports whether the environment asks for a trace exporter: OTEL_TRACES_EXPORTER set to
// something other than "none", or an OTLP endpoint given. OTEL_SDK_DISABLED=true wins over both.
func Enabled(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	if e := getenv("OTEL_TRACES_EXPORTER"); e != "" {
		return !strings.EqualFold(e, "none")
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup installs the global tracer provider and W3C propagator. The returned shutdown flushes
// spans; call it before exit. service names the process in traces ("awf", "awf-mcp-serve").
func Setup(ctx context.Context, service string) (trace.TracerProvider, func(context.Context) error, error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	if !Enabled(os.Getenv) {
		tp := noop.NewTracerProvider()
		otel.SetTracerProvider(tp)
		return tp, func(context.Context) error { return nil }, nil
	}
	exp, err := autoexport.NewSpanExporter(ctx)
	if err != nil {
		return nil, nil, err
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(service)))
	if err != nil {
		res = resource.Default()
	}
	if os.Getenv("OTEL_SERVICE_NAME") != "" {
		res = resource.Default() // the user's OTEL_SERVICE_NAME wins over ours
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	return tp, tp.Shutdown, nil
}

// Traceparent returns the W3C traceparent of the span in ctx, or "" when there is none. It is
// how a step's trace crosses into the `awf mcp-serve` subprocess.
func Traceparent(ctx context.Context) string {
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier["traceparent"]
}

// WithTraceparent returns ctx carrying the remote span context named by tp, so spans started
// from it become children of the span in the other process.
func WithTraceparent(ctx context.Context, tp string) context.Context {
	if tp == "" {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": tp})
}
