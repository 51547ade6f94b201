package mcpserve

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/domain/toolset"
)

// BenchmarkServeRead measures a 4 KiB Read through the whole proxy in-process (go-sdk client,
// pkg/mcpserver, exposure, router, built-in), for profiling with -cpuprofile.
func BenchmarkServeRead(b *testing.B) {
	root := b.TempDir()
	file := filepath.Join(root, "f.txt")
	_ = os.WriteFile(file, []byte(strings.Repeat(strings.Repeat("y", 63)+"\n", 64)), 0o644)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_ = Serve(ctx, toolset.Spec{Root: root, Builtins: true, Intent: toolset.DefaultIntent()}, Deps{}, inR, outW)
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Read", Arguments: map[string]any{"file_path": file}})
		if err != nil || res.IsError {
			b.Fatal(err)
		}
	}
}
