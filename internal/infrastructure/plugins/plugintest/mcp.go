package plugintest

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// MCPFixture builds tests/mcpfixture, the project's own MCP server for `type: mcp` plugin
// tests, into dir and returns its path.
func MCPFixture(tb testing.TB, dir string) string {
	tb.Helper()
	bin := filepath.Join(dir, "mcpfixture")
	cmd := exec.Command("go", "build", "-o", bin, "./tests/mcpfixture")
	cmd.Dir = RepoRoot(tb)
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build ./tests/mcpfixture: %v\n%s", err, msg)
	}
	return bin
}
