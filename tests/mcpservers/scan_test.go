package mcpservers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

// TestScanFindsNothingInRealServers: the scan of tool definitions raises nothing on
// server-everything, server-filesystem and the example plugins, scanned together (so the
// rules that compare servers run too): no false positive on what honest servers write.
func TestScanFindsNothingInRealServers(t *testing.T) {
	requireServers(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	ex := plugintest.BuildTo(t, t.TempDir(), "notes", "echo")
	root := t.TempDir()
	file := filepath.Join(root, ".awf", "plugins.yaml")
	manifest := fmt.Sprintf(`plugins:
  everything:
    type: mcp
    command: %s/mcp-server-everything
  fs:
    type: mcp
    command: %s/mcp-server-filesystem
    args: [%q]
  notes:
    command: %s
    config: {dir: %q}
  echo:
    command: %s
`, binDir, binDir, root, ex["notes"], filepath.Join(root, "notes"), ex["echo"])
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	h := plugins.New(plugins.Options{Root: root, File: file})
	t.Cleanup(func() { _ = h.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	rep, err := h.Scan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) > 0 {
		t.Fatalf("false positives: %v", rep.Findings)
	}
	if len(rep.Lines) != 4 || rep.Lines["fs"] != 5 {
		t.Errorf("declaration lines %v", rep.Lines)
	}
	// Scanned something: each server lists tools the scan read.
	for _, p := range []string{"everything", "fs", "notes", "echo"} {
		ops, err := h.Operations(ctx, p)
		if err != nil || len(ops) == 0 {
			t.Errorf("%s: %d tools, %v", p, len(ops), err)
		}
	}
}
