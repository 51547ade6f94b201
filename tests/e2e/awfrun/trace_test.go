package awfrun_test

import (
	"encoding/hex"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/testkit"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/awf-dev/awf/tests/e2e/fakemodel"
)

// TestToolSpansCrossTheProcessBoundary: tool-call spans made inside `awf mcp-serve` (spawned by
// the CLI, not by awf) are children of the step span of `awf run`, for a CLI that passes its MCP
// servers the whole environment (claude) and one that passes almost nothing (codex).
func TestToolSpansCrossTheProcessBoundary(t *testing.T) {
	for _, c := range []agentCLI{clis[0], clis[2]} {
		t.Run(c.name, func(t *testing.T) {
			srv := testkit.NewOTLPReceiver()
			defer srv.Close()
			p := newProject(t, c, func(p *project) fakemodel.Script {
				return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{{Name: "Read", Args: map[string]any{"file_path": p.file}}}}
			}, "      enable: true")
			p.env = append(p.env, "OTEL_EXPORTER_OTLP_ENDPOINT="+srv.URL, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_BSP_SCHEDULE_DELAY=100")
			p.run(t)
			var step, call *tracepb.Span
			srv.Await(10*time.Second, func(spans []*tracepb.Span) bool {
				for _, s := range spans {
					switch s.Name {
					case "step agent":
						step = s
					case "execute_tool Read":
						call = s
					}
				}
				return step != nil && call != nil
			})
			if step == nil || call == nil {
				t.Fatalf("spans missing: step %v, tool call %v", step != nil, call != nil)
			}
			if hex.EncodeToString(call.TraceId) != hex.EncodeToString(step.TraceId) || hex.EncodeToString(call.ParentSpanId) != hex.EncodeToString(step.SpanId) {
				t.Fatalf("execute_tool Read is not a child of the step span")
			}
		})
	}
}
