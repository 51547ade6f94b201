package telemetry

import (
	"context"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"

	"github.com/awf-dev/awf/internal/infrastructure/telemetry/otelenv"
)

// setupMetrics installs the global meter provider when OTEL_METRICS_EXPORTER asks for otlp
// (otelenv.MetricsEnabled), for the MCP duration histograms (docs/reference/telemetry.md); it
// returns the provider's shutdown, which exports what is left. The OTLP exporter reads its
// endpoint, headers and TLS from the OTEL_EXPORTER_OTLP_[METRICS_]* variables, the reader its
// interval from OTEL_METRIC_EXPORT_INTERVAL.
func setupMetrics(ctx context.Context, getenv func(string) string, res *resource.Resource) (func(context.Context) error, error) {
	if !otelenv.MetricsEnabled(getenv) {
		return func(context.Context) error { return nil }, nil
	}
	kind := strings.ToLower(strings.TrimSpace(getenv("OTEL_METRICS_EXPORTER")))
	if i := strings.IndexByte(kind, ','); i >= 0 {
		kind = kind[:i] // several exporters: the first one is used
	}
	if kind != "otlp" {
		return nil, fmt.Errorf("OTEL_METRICS_EXPORTER=%q is not supported: use otlp or none", kind)
	}
	proto := getenv("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL")
	if proto == "" {
		proto = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	var (
		exp sdkmetric.Exporter
		err error
	)
	switch strings.ToLower(strings.TrimSpace(proto)) {
	case "", "http/protobuf":
		exp, err = otlpmetrichttp.New(ctx)
	case "grpc":
		exp, err = otlpmetricgrpc.New(ctx)
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=%q is not supported: use grpc or http/protobuf", proto)
	}
	if err != nil {
		return nil, err
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)), sdkmetric.WithResource(res))
	otel.SetMeterProvider(mp)
	return mp.Shutdown, nil
}
