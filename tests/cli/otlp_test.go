package cli_test

import (
	"encoding/hex"
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

func TestRunExportsSpanTreeOverOTLP(t *testing.T) {
	srv := testkit.NewOTLPReceiver()
	defer srv.Close()
	dir := project(t, map[string]string{"flow.yaml": flowWorkflow})
	r := awf(t, dir, []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + srv.URL,
		"OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf",
		"OTEL_TRACES_EXPORTER=otlp",
	}, "run", "flow", "--input", "count=1")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	spans := srv.Spans()
	byName := testkit.ByName(spans)
	run, ok := byName["workflow.run flow"]
	if !ok {
		t.Fatalf("no run span among %d spans: %v", len(spans), names(spans))
	}
	if len(run.ParentSpanId) != 0 {
		t.Errorf("run span has a parent")
	}
	for _, step := range []string{"step first", "step branch"} {
		s, ok := byName[step]
		if !ok {
			t.Fatalf("no span %q among %v", step, names(spans))
		}
		if hex.EncodeToString(s.ParentSpanId) != hex.EncodeToString(run.SpanId) || hex.EncodeToString(s.TraceId) != hex.EncodeToString(run.TraceId) {
			t.Errorf("%s is not a child of the run span", step)
		}
	}
}

func names(spans []*tracepb.Span) []string {
	out := make([]string, 0, len(spans))
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}
