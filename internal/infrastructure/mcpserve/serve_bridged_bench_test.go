package mcpserve

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/internal/infrastructure/tools/pluginadapter"
)

// BenchmarkServeBridged measures an echo on the fixture MCP server bridged as a `type: mcp`
// plugin, through the whole proxy in-process (go-sdk client, pkg/mcpserver, exposure, router,
// plugin adapter, the host's MCP client, the fixture over stdio), for profiling with
// -cpuprofile; tests/mcpserve's BenchmarkBridgedCallP50 measures it against a direct call.
func BenchmarkServeBridged(b *testing.B) {
	bin := plugintest.MCPFixture(b, b.TempDir())
	root, file := plugintest.Project(b, fmt.Sprintf("plugins:\n  fix: {type: mcp, command: %s}\n", bin))
	h := plugins.New(plugins.Options{Root: root, File: file})
	entries := []toolset.PluginTools{{Plugin: "fix", Expose: []string{"echo"}}}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_ = Serve(ctx, toolset.Spec{Root: root, Intent: toolset.DefaultIntent(), PluginTools: entries}, Deps{Providers: pluginadapter.Owned(h, h, entries)}, inR, outW)
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		b.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "fix_echo", Arguments: map[string]any{"text": "x"}}
	b.Run("through-proxy", func(b *testing.B) {
		for b.Loop() {
			if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
	// The hop alone: awf's own MCP client to the fixture, without the front (the agent's
	// client, pkg/mcpserver, the router).
	b.Run("hop-only", func(b *testing.B) {
		for b.Loop() {
			if _, err := h.Execute(ctx, "fix", "echo", []byte(`{"text":"x"}`)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
