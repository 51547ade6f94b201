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
	return buildTestProgram(tb, dir, "mcpfixture")
}

// buildTestProgram builds the test program tests/<name> into dir/<name> and returns its path.
func buildTestProgram(tb testing.TB, dir, name string) string {
	tb.Helper()
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, "./tests/"+name)
	cmd.Dir = RepoRoot(tb)
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build ./tests/%s: %v\n%s", name, err, msg)
	}
	return bin
}
