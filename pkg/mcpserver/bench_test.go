package mcpserver

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCallEcho measures one tools/call round trip through the whole
// stack: go-sdk client, io.Pipe pair, line filter, SDK server or direct path, handler. It is
// the reference for the per-call overhead of the MCP proxy, as awf serves it (AccelAll).
func BenchmarkCallEcho(b *testing.B) { benchCallEcho(b, AccelAll) }

// BenchmarkCallEchoSDK is BenchmarkCallEcho on the SDK's own path, every accelerator off.
func BenchmarkCallEchoSDK(b *testing.B) { benchCallEcho(b, 0) }

func benchCallEcho(b *testing.B, accel Accelerators) {
	srv := New(Options{Accelerators: accel})
	if err := srv.AddTool(echo()); err != nil {
		b.Fatal(err)
	}
	toServerR, toServerW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(ctx, toServerR, toClientW)
		_ = toClientW.Close()
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: toClientR, Writer: toServerW},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello"}}

	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatalf("CallTool: %v %v", res, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/call")

	_ = cs.Close()
	select {
	case err := <-served:
		if err != nil {
			b.Fatalf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		b.Fatal("Serve did not return after the client closed")
	}
}
