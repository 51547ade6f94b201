// Package telemetry sets up OpenTelemetry tracing from the standard OTEL_* environment variables.
// With nothing configured it installs nothing, so tracing costs a no-op call per span.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/awf-dev/awf/internal/infrastructure/telemetry/otelenv"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// Enabled reports whether the environment asks for a trace exporter (see otelenv.Enabled).
func Enabled(getenv func(string) string) bool { return otelenv.Enabled(getenv) }

// Setup installs the global tracer provider and W3C propagator, and the meter provider when
// OTEL_METRICS_EXPORTER asks for one. The returned shutdown flushes
// spans; call it before exit. service names the process in traces ("awf", "awf-mcp-serve").
func Setup(ctx context.Context, service string, opts ...Option) (trace.TracerProvider, func(context.Context) error, error) {
	return setup(ctx, service, false, opts)
}

// SetupSync is Setup with every span exported as it ends. `awf mcp-serve` uses it: agent CLIs
// stop their MCP servers as they please (codex may kill it right after the last call), so a
// batch waiting for its timer would be lost. Tool calls are few; the export per call is cheap.
func SetupSync(ctx context.Context, service string, opts ...Option) (trace.TracerProvider, func(context.Context) error, error) {
	return setup(ctx, service, true, opts)
}

func setup(ctx context.Context, service string, sync bool, opts []Option) (trace.TracerProvider, func(context.Context) error, error) {
	var o setupOptions
	for _, f := range opts {
		f(&o)
	}
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(service)))
	if err != nil {
		res = resource.Default()
	}
	if os.Getenv("OTEL_SERVICE_NAME") != "" {
		res = resource.Default() // the user's OTEL_SERVICE_NAME wins over ours
	}
	stopMetrics, err := setupMetrics(ctx, os.Getenv, res)
	if err != nil {
		return nil, nil, err
	}
	if !Enabled(os.Getenv) {
		tp := noop.NewTracerProvider()
		otel.SetTracerProvider(tp)
		return tp, stopMetrics, nil
	}
	exp, err := newExporter(ctx, os.Getenv)
	if err != nil {
		_ = stopMetrics(ctx)
		return nil, nil, err
	}
	exp = wrapExporter(exp, o.red)
	processor := sdktrace.WithBatcher(exp)
	if sync {
		processor = sdktrace.WithSyncer(exp)
	}
	tp := sdktrace.NewTracerProvider(processor, sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	return tp, func(ctx context.Context) error { return errors.Join(tp.Shutdown(ctx), stopMetrics(ctx)) }, nil
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

// newExporter picks the span exporter the way the OpenTelemetry spec's environment variables say:
// OTEL_TRACES_EXPORTER (otlp, console; default otlp) and, for otlp,
// OTEL_EXPORTER_OTLP_TRACES_PROTOCOL / OTEL_EXPORTER_OTLP_PROTOCOL (grpc, http/protobuf; default
// http/protobuf). Endpoints, headers, TLS and timeouts are read by the exporters themselves from
// the other OTEL_EXPORTER_OTLP_* variables. This replaces contrib's autoexport, whose metric and
// Prometheus dependencies tripled the start-up time of `awf mcp-serve` (measured with
// GODEBUG=inittrace=1), which agent CLIs pay on every step.
func newExporter(ctx context.Context, getenv func(string) string) (sdktrace.SpanExporter, error) {
	kind := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")))
	if i := strings.IndexByte(kind, ','); i >= 0 {
		kind = kind[:i] // several exporters: the first one is used
	}
	switch kind {
	case "", "otlp":
	case "console":
		return stdouttrace.New(stdouttrace.WithWriter(os.Stderr))
	default:
		return nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%q is not supported: use otlp, console or none", kind)
	}
	proto := getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if proto == "" {
		proto = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	switch strings.ToLower(strings.TrimSpace(proto)) {
	case "", "http/protobuf":
		return otlptracehttp.New(ctx)
	case "grpc":
		return otlptracegrpc.New(ctx)
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%q is not supported: use grpc or http/protobuf", proto)
	}
}
