package awfrun_test

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/tests/e2e/fakemodel"
	"github.com/awf-dev/awf/tests/testkit"
)

// TestOneTraceFromRunToBridgedServer: an agent step of `awf run` calls a tool of a bridged MCP
// server, through a real CLI (claude, whose `awf mcp-serve` makes the call) and through the
// in-process openai_compatible provider. The server receives in params._meta a traceparent
// with the run's trace id whose parent is awf's MCP client span; the spans exported over OTLP
// chain workflow.run → … → execute_tool fix_echo → tools/call echo and carry the GenAI and
// MCP conventions' names. With OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental (the
// openai_compatible case) awf's duplicate awf.tool.name is gone; without it (claude) it stays.
func TestOneTraceFromRunToBridgedServer(t *testing.T) {
	fixture := plugintest.MCPFixture(t, t.TempDir())
	for _, provider := range []string{"claude", "openai_compatible"} {
		t.Run(provider, func(t *testing.T) {
			otlp := testkit.NewOTLPReceiver()
			defer otlp.Close()
			p := newProject(t, clis[0], func(p *project) fakemodel.Script {
				return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{{Name: "fix_echo", Args: map[string]any{"text": p.marker}}}}
			}, "")
			opts := "{}"
			latest := provider == "openai_compatible"
			if latest {
				opts = fmt.Sprintf(`{base_url: %q, model: fake-model, api_key_env: FAKEMODEL_API_KEY}`, p.fake.URL+"/v1")
				p.env = append(p.env, "FAKEMODEL_API_KEY=sk-e2e", "OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental")
			}
			tmp := filepath.Join(p.home, "tmp")
			must(t, os.MkdirAll(tmp, 0o700))
			p.env = append(p.env, "TMPDIR="+tmp, "OTEL_EXPORTER_OTLP_ENDPOINT="+otlp.URL, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_BSP_SCHEDULE_DELAY=100")
			metaLog := filepath.Join(p.home, "meta.jsonl")
			writeBridgedWorkflow(t, p, provider, opts, fmt.Sprintf("plugins:\n  fix:\n    type: mcp\n    command: %s\n    env: {FIXTURE_META_LOG: %q}\n", fixture, metaLog))
			p.run(t)

			var run, exec, client *tracepb.Span
			otlp.Await(15*time.Second, func(spans []*tracepb.Span) bool {
				for _, s := range spans {
					switch s.Name {
					case "workflow.run e2e":
						run = s
					case "execute_tool fix_echo":
						exec = s
					case "tools/call echo":
						client = s
					}
				}
				return run != nil && exec != nil && client != nil
			})
			if run == nil || exec == nil || client == nil {
				t.Fatalf("spans missing: workflow.run %v, execute_tool %v, tools/call %v (got %v)", run != nil, exec != nil, client != nil, spanNames(otlp.Spans()))
			}
			runTrace := hex.EncodeToString(run.TraceId)
			if hex.EncodeToString(exec.TraceId) != runTrace || hex.EncodeToString(client.TraceId) != runTrace {
				t.Fatalf("the tool spans are not in the run's trace %s", runTrace)
			}
			if hex.EncodeToString(client.ParentSpanId) != hex.EncodeToString(exec.SpanId) {
				t.Errorf("tools/call echo is not a child of execute_tool fix_echo")
			}

			// What the server received.
			tp := receivedTraceparent(t, metaLog)
			want := "00-" + runTrace + "-" + hex.EncodeToString(client.SpanId) + "-01"
			if tp != want {
				t.Errorf("the server received traceparent %q, want %q (the run's trace, awf's client span)", tp, want)
			}

			// The conventions' names, as exported.
			if exec.Kind != tracepb.Span_SPAN_KIND_INTERNAL || client.Kind != tracepb.Span_SPAN_KIND_CLIENT {
				t.Errorf("span kinds: execute_tool %v, tools/call %v", exec.Kind, client.Kind)
			}
			for k, v := range map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "fix_echo", "awf.tool.source": "mcp:fix"} {
				if got := otlpAttr(exec, k); got != v {
					t.Errorf("execute_tool %s = %q, want %q", k, got, v)
				}
			}
			if got := otlpAttr(exec, "awf.intent.variant"); got == "" {
				t.Error("execute_tool lost awf's own awf.intent.variant")
			}
			if got := otlpAttr(exec, "awf.tool.name"); latest != (got == "") {
				t.Errorf("awf.tool.name = %q with gen_ai_latest_experimental %v", got, latest)
			}
			if got := otlpAttr(exec, "gen_ai.tool.call.id"); latest && !strings.HasPrefix(got, "call") {
				t.Errorf("gen_ai.tool.call.id = %q, want the model's tool_calls id", got)
			}
			for k, v := range map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "gen_ai.operation.name": "execute_tool", "network.transport": "pipe"} {
				if got := otlpAttr(client, k); got != v {
					t.Errorf("tools/call %s = %q, want %q", k, got, v)
				}
			}
			for _, k := range []string{"mcp.protocol.version", "jsonrpc.request.id"} {
				if otlpAttr(client, k) == "" {
					t.Errorf("tools/call has no %s", k)
				}
			}
		})
	}
}

// writeBridgedWorkflow writes the e2e workflow (one agent step offered the fixture's echo
// tool) and the plugins file.
func writeBridgedWorkflow(t *testing.T, p *project, provider, opts, plugins string) {
	t.Helper()
	wf := fmt.Sprintf(`name: e2e
states:
  initial: agent
  agent:
    type: agent
    provider: %s
    prompt: Echo the marker with the fixture's echo tool.
    options: %s
    timeout: 4m
    mcp_proxy:
      enable: true
      intercept_builtins: true
      plugin_tools:
        - plugin: fix
          expose: [echo]
      intent:
        allow: [read]
    on_success: done
    on_failure: failed
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`, provider, opts)
	must(t, os.WriteFile(filepath.Join(p.dir, ".awf", "workflows", "e2e.yaml"), []byte(wf), 0o644))
	must(t, os.WriteFile(filepath.Join(p.dir, ".awf", "plugins.yaml"), []byte(plugins), 0o644))
}

// receivedTraceparent is the traceparent in the _meta of the fixture's one echo call.
func receivedTraceparent(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the fixture recorded no call: %v", err)
	}
	defer func() { _ = f.Close() }()
	var found []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec struct {
			Tool string         `json:"tool"`
			Meta map[string]any `json:"_meta"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		if rec.Tool == "echo" {
			tp, _ := rec.Meta["traceparent"].(string)
			found = append(found, tp)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the fixture saw %d echo calls, want 1: %q", len(found), found)
	}
	return found[0]
}

// otlpAttr is the string value of a span's attribute, "" when absent.
func otlpAttr(s *tracepb.Span, key string) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return anyString(kv.Value)
		}
	}
	return ""
}

func anyString(v *commonpb.AnyValue) string {
	if v == nil {
		return ""
	}
	if s, ok := v.Value.(*commonpb.AnyValue_StringValue); ok {
		return s.StringValue
	}
	return fmt.Sprint(v.Value)
}

func spanNames(spans []*tracepb.Span) []string {
	out := make([]string, 0, len(spans))
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}
