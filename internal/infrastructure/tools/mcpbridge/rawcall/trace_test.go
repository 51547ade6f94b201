package rawcall

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/internal/infrastructure/tools/mcpbridge"
)

// The trace context of the call reaches the server in params._meta on every path (the SDK's
// over stdio, the raw accelerator's over stdio, the SDK's over Streamable HTTP): traceparent
// names the caller's trace and the MCP client span "tools/call echo" as parent, tracestate is
// passed on, and a call without a caller's span is the root of a trace of its own. The client
// span carries the MCP conventions' names.
func TestEveryPathSendsTheTraceContext(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	bin := plugintest.MCPFixture(t, t.TempDir())
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev) })

	for _, m := range []struct {
		name        string
		accel, http bool
	}{{"sdk-stdio", false, false}, {"raw-stdio", true, false}, {"sdk-http", false, true}} {
		t.Run(m.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "meta.jsonl")
			t.Setenv("FIXTURE_META_LOG", log)
			var s *mcpbridge.Server
			made := func() *calls { return nil }
			if m.http {
				s = httpFixtureServer(t, bin)
			} else {
				s, made = fixtureServer(t, bin, m.accel, time.Minute)
			}
			// A remote parent with a tracestate, as the step's span arrives in mcp-serve.
			traceID, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
			spanID, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
			ts, _ := trace.ParseTraceState("rojo=00f067aa0ba902b7")
			parent := trace.ContextWithRemoteSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
				TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true}))
			ctx, cancel := context.WithTimeout(parent, 30*time.Second)
			defer cancel()
			if _, err := s.Execute(ctx, "echo", json.RawMessage(`{"text":"traced"}`)); err != nil {
				t.Fatal(err)
			}
			if _, err := execute(t, s, "echo", `{"text":"untraced"}`); err != nil {
				t.Fatal(err)
			}
			if c := made(); m.accel && (c == nil || c.next.Load() != 2) {
				t.Fatalf("the calls did not go the raw way (%v)", c)
			}
			metas := readMetas(t, log)
			if len(metas) != 2 {
				t.Fatalf("the server saw %d calls, want 2: %v", len(metas), metas)
			}
			var client sdktrace.ReadOnlySpan
			for _, sp := range rec.Ended() {
				if sp.Name() == "tools/call echo" && sp.Parent().SpanID() == spanID {
					client = sp
				}
			}
			if client == nil {
				t.Fatal("no client span tools/call echo under the caller's span")
			}
			want := "00-" + traceID.String() + "-" + client.SpanContext().SpanID().String() + "-01"
			if got := metas[0]["traceparent"]; got != want {
				t.Errorf("traceparent = %v, want %s", got, want)
			}
			if got := metas[0]["tracestate"]; got != "rojo=00f067aa0ba902b7" {
				t.Errorf("tracestate = %v", got)
			}
			// Without a caller's span the client span starts a trace of its own.
			if got, _ := metas[1]["traceparent"].(string); got == "" || strings.Contains(got, traceID.String()) {
				t.Errorf("the untraced call's traceparent = %q", got)
			}
			if client.SpanKind() != trace.SpanKindClient {
				t.Errorf("span kind %v", client.SpanKind())
			}
			attrs := attribute.NewSet(client.Attributes()...)
			wantAttrs := map[attribute.Key]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "gen_ai.operation.name": "execute_tool", "network.transport": "pipe"}
			if m.http {
				wantAttrs["network.transport"] = "tcp"
			}
			for k, v := range wantAttrs {
				if got, _ := attrs.Value(k); got.AsString() != v {
					t.Errorf("%s = %q, want %q", k, got.AsString(), v)
				}
			}
			if got, _ := attrs.Value("mcp.protocol.version"); got.AsString() == "" {
				t.Error("no mcp.protocol.version")
			}
			if got, _ := attrs.Value("jsonrpc.request.id"); m.accel && !strings.HasPrefix(got.AsString(), rawIDPrefix) {
				t.Errorf("jsonrpc.request.id = %q on the raw path", got.AsString())
			}
			if got, _ := attrs.Value("mcp.session.id"); m.http && got.AsString() == "" {
				t.Error("no mcp.session.id over Streamable HTTP")
			}
		})
	}
}

// An isError result marks the client span with error.type tool_error, on both stdio paths.
func TestToolErrorMarksTheClientSpan(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	bin := plugintest.MCPFixture(t, t.TempDir())
	rec := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	for _, m := range modes {
		s, _ := fixtureServer(t, bin, m.accel, time.Minute)
		res, err := execute(t, s, "fail", `{}`)
		if err != nil || !res.IsError {
			t.Fatalf("%s: fail = %+v, %v", m.name, res, err)
		}
	}
	n := 0
	for _, sp := range rec.Ended() {
		if sp.Name() != "tools/call fail" {
			continue
		}
		n++
		set := attribute.NewSet(sp.Attributes()...)
		if got, _ := set.Value("error.type"); got.AsString() != "tool_error" {
			t.Errorf("error.type = %q", got.AsString())
		}
	}
	if n != len(modes) {
		t.Errorf("%d spans tools/call fail, want %d", n, len(modes))
	}
}

// httpFixtureServer bridges the fixture server over Streamable HTTP.
func httpFixtureServer(t *testing.T, bin string) *mcpbridge.Server {
	t.Helper()
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + strings.TrimSpace(addr) + "/mcp"
	s := mcpbridge.New(mcpbridge.Config{
		Name: "fx", What: url, StartupTimeout: 30 * time.Second, CallTimeout: time.Minute, MaxCrashes: 3,
		Launch: func() (mcpbridge.Launch, error) { return mcpbridge.Launch{URL: url}, nil },
	})
	t.Cleanup(s.Stop)
	return s
}

// readMetas reads the _meta of each call the fixture recorded.
func readMetas(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for line := range strings.Lines(string(b)) {
		var rec struct {
			Meta map[string]any `json:"_meta"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		out = append(out, rec.Meta)
	}
	return out
}

// Each call on each path is measured in mcp.client.operation.duration, with the MCP
// conventions' attributes.
func TestClientDurationIsRecorded(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	bin := plugintest.MCPFixture(t, t.TempDir())
	reader := sdkmetric.NewManualReader()
	otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	for _, m := range modes {
		s, _ := fixtureServer(t, bin, m.accel, time.Minute)
		if _, err := execute(t, s, "echo", `{"text":"x"}`); err != nil {
			t.Fatal(err)
		}
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "mcp.client.operation.duration" {
				continue
			}
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok || len(h.DataPoints) != 1 || h.DataPoints[0].Count != uint64(len(modes)) || m.Unit != "s" {
				t.Fatalf("histogram %+v", m)
			}
			for k, want := range map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "gen_ai.operation.name": "execute_tool", "network.transport": "pipe"} {
				if v, _ := h.DataPoints[0].Attributes.Value(attribute.Key(k)); v.AsString() != want {
					t.Errorf("%s = %q, want %q", k, v.AsString(), want)
				}
			}
			return
		}
	}
	t.Fatalf("no mcp.client.operation.duration in %+v", rm.ScopeMetrics)
}
