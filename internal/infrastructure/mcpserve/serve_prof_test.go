package mcpserve

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/logging"
)

// BenchmarkServeReadStep is BenchmarkServeRead with what a step's proxy has: an activity file,
// a log file and a redactor, at 1 and at 8 calls in flight; for profiling the call path.
func BenchmarkServeReadStep(b *testing.B) {
	for _, inFlight := range []int{1, 8} {
		b.Run(map[int]string{1: "c1", 8: "c8"}[inFlight], func(b *testing.B) {
			dir := b.TempDir()
			file := filepath.Join(dir, "f.txt")
			_ = os.WriteFile(file, []byte(strings.Repeat(strings.Repeat("y", 63)+"\n", 64)), 0o644)
			red := redact.New(os.Environ())
			logger, closeLog, err := logging.New(logging.Options{File: filepath.Join(dir, "awf.log"), Redactor: red})
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = closeLog() }()
			spec := toolset.Spec{Root: dir, Builtins: true, Intent: toolset.DefaultIntent(), ActivityFile: filepath.Join(dir, "activity.jsonl"), RunID: "r", Step: "s"}
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() { _ = Serve(ctx, spec, Deps{Logger: logger, Redactor: red}, inR, outW) }()
			c := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "1"}, nil)
			cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
			if err != nil {
				b.Fatal(err)
			}
			params := &mcp.CallToolParams{Name: "Read", Arguments: map[string]any{"file_path": file}}
			b.ResetTimer()
			var wg sync.WaitGroup
			for range inFlight {
				wg.Go(func() {
					for range b.N / inFlight {
						if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
		})
	}
}
