package telemetry

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	collectormetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	"google.golang.org/protobuf/proto"
)

// With OTEL_METRICS_EXPORTER=otlp, Setup installs a meter provider whose shutdown exports what
// was recorded to the OTLP endpoint's /v1/metrics; without it, nothing is installed.
func TestSetupExportsMetricsOnlyWhenAsked(t *testing.T) {
	var (
		mu    sync.Mutex
		names []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path == "/v1/metrics" {
			var req collectormetrics.ExportMetricsServiceRequest
			if proto.Unmarshal(body, &req) == nil {
				mu.Lock()
				for _, rm := range req.ResourceMetrics {
					for _, sm := range rm.ScopeMetrics {
						for _, m := range sm.Metrics {
							names = append(names, m.Name)
						}
					}
				}
				mu.Unlock()
			}
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	for _, asked := range []bool{false, true} {
		if asked {
			t.Setenv("OTEL_METRICS_EXPORTER", "otlp")
		}
		_, shutdown, err := Setup(context.Background(), "awf-test")
		if err != nil {
			t.Fatal(err)
		}
		h, _ := otel.Meter("t").Float64Histogram("mcp.client.operation.duration")
		h.Record(context.Background(), 0.5)
		if err := shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		got := len(names)
		mu.Unlock()
		if asked != (got == 1) {
			t.Fatalf("OTEL_METRICS_EXPORTER set %v: exported %v", asked, names)
		}
	}
}

func TestSetupRejectsUnknownMetricsExporter(t *testing.T) {
	t.Setenv("OTEL_METRICS_EXPORTER", "prometheus")
	if _, _, err := Setup(context.Background(), "awf-test"); err == nil {
		t.Fatal("OTEL_METRICS_EXPORTER=prometheus accepted")
	}
}
