package builtins

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

// BenchmarkRead measures one small Read through CallTool, three directories below the root: the
// figure the issue compares before and after os.Root (target: no more than 5 % slower).
func BenchmarkRead(b *testing.B) {
	root := b.TempDir()
	testkit.WriteBenchFile(b, root)
	p := newBenchProvider(b, root)
	args, _ := json.Marshal(map[string]any{"file_path": testkit.BenchFile})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := p.CallTool(ctx, "Read", args)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}
