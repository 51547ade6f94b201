package builtins

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRead measures one small Read through CallTool, three directories below the root: the
// figure the issue compares before and after os.Root (target: no more than 5 % slower).
func BenchmarkRead(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.go"), []byte(strings.Repeat("package x // line\n", 200)), 0o644); err != nil {
		b.Fatal(err)
	}
	p, err := New(Options{Root: root, Env: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	args, _ := json.Marshal(map[string]any{"file_path": "a/b/c/f.go"})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := p.CallTool(ctx, "Read", args)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}
