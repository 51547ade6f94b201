package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/toolset"
)

// Each tools/call the agent sends is measured in mcp.server.operation.duration, with the MCP
// conventions' attributes.
func TestToolsCallIsMeasured(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	cfg := toolset.Spec{Root: t.TempDir(), Intent: toolset.DefaultIntent(), PluginTools: []toolset.PluginTools{{Plugin: "fake", Expose: []string{"*"}}}}
	served := make(chan error, 1)
	go func() {
		served <- Serve(context.Background(), cfg, Deps{Providers: []ports.ToolProvider{&echoProvider{}}}, inR, outW)
	}()
	sc := bufio.NewScanner(outR)
	ask := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil && m["id"] != nil {
				return
			}
		}
		t.Fatalf("no answer to %s", line)
	}
	ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	ask(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fake_echo","arguments":{"x":1}}}`)
	_ = inW.Close()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	if err := <-served; err != nil {
		t.Fatal(err)
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "mcp.server.operation.duration" {
				continue
			}
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok || len(h.DataPoints) != 1 || h.DataPoints[0].Count != 1 || m.Unit != "s" {
				t.Fatalf("histogram %+v", m)
			}
			for k, want := range map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "fake_echo", "gen_ai.operation.name": "execute_tool", "network.transport": "pipe"} {
				if v, _ := h.DataPoints[0].Attributes.Value(attribute.Key(k)); v.AsString() != want {
					t.Errorf("%s = %q, want %q", k, v.AsString(), want)
				}
			}
			return
		}
	}
	t.Fatalf("no mcp.server.operation.duration in %+v", rm.ScopeMetrics)
}
