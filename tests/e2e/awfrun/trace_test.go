package awfrun_test

import (
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/awf-dev/awf/tests/e2e/fakemodel"
)

type receiver struct {
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
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
	_, _ = w.Write(out)
}

// TestToolSpansCrossTheProcessBoundary: tool-call spans made inside `awf mcp-serve` (spawned by
// the CLI, not by awf) are children of the step span of `awf run`, for a CLI that passes its MCP
// servers the whole environment (claude) and one that passes almost nothing (codex).
func TestToolSpansCrossTheProcessBoundary(t *testing.T) {
	for _, c := range []agentCLI{clis[0], clis[2]} {
		t.Run(c.name, func(t *testing.T) {
			recv := &receiver{}
			srv := httptest.NewServer(recv)
			defer srv.Close()
			p := newProject(t, c, func(p *project) fakemodel.Script {
				return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{{Name: "Read", Args: map[string]any{"file_path": p.file}}}}
			}, "      enable: true")
			p.env = append(p.env, "OTEL_EXPORTER_OTLP_ENDPOINT="+srv.URL, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_BSP_SCHEDULE_DELAY=100")
			p.run(t)
			var step, call *tracepb.Span
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				recv.mu.Lock()
				for _, s := range recv.spans {
					switch s.Name {
					case "step agent":
						step = s
					case "tool.call Read":
						call = s
					}
				}
				recv.mu.Unlock()
				if step != nil && call != nil {
					break
				}
			}
			if step == nil || call == nil {
				t.Fatalf("spans missing: step %v, tool call %v", step != nil, call != nil)
			}
			if hex.EncodeToString(call.TraceId) != hex.EncodeToString(step.TraceId) || hex.EncodeToString(call.ParentSpanId) != hex.EncodeToString(step.SpanId) {
				t.Fatalf("tool.call Read is not a child of the step span")
			}
		})
	}
}
