package telemetry

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/tests/testkit"
)

// Setup with WithRedactor masks what really leaves over OTLP.
func TestSetupMasksExportedSpans(t *testing.T) {
	rcv := testkit.NewOTLPReceiver()
	defer rcv.Close()
	t.Setenv("OTEL_TRACES_EXPORTER", "otlp")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	tp, shutdown, err := Setup(context.Background(), "awf-test", WithRedactor(redact.New([]string{"A_TOKEN=" + secret})))
	if err != nil {
		t.Fatal(err)
	}
	_, span := tp.Tracer("t").Start(context.Background(), "step "+secret)
	span.End()
	if err := shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := rcv.Spans()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	if text := prototext.Format(spans[0]); strings.Contains(text, secret[:8]) || !strings.Contains(text, redact.Mask) {
		t.Errorf("exported span: %s", text)
	}
}
