package cli_test

import (
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is a minimal OTLP/HTTP trace receiver: it decodes real export requests.
type otlpReceiver struct {
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (r *otlpReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	var msg collectortrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &msg); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	for _, rs := range msg.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	r.mu.Unlock()
	out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func TestRunExportsSpanTreeOverOTLP(t *testing.T) {
	recv := &otlpReceiver{}
	srv := httptest.NewServer(recv)
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
	recv.mu.Lock()
	defer recv.mu.Unlock()
	byName := map[string]*tracepb.Span{}
	for _, s := range recv.spans {
		byName[s.Name] = s
	}
	run, ok := byName["workflow.run flow"]
	if !ok {
		t.Fatalf("no run span among %d spans: %v", len(recv.spans), names(recv.spans))
	}
	if len(run.ParentSpanId) != 0 {
		t.Errorf("run span has a parent")
	}
	for _, step := range []string{"step first", "step branch"} {
		s, ok := byName[step]
		if !ok {
			t.Fatalf("no span %q among %v", step, names(recv.spans))
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
