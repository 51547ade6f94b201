package mcpserve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

// TestMCPServerPluginOverMCPServe: an MCP server bridged as a `type: mcp` plugin, served by
// `awf mcp-serve` to a go-sdk client: listed with its effective annotations, called, refused
// by the intent rule, recorded as mcp:<plugin>, and gone with mcp-serve — grandchild included.
func TestMCPServerPluginOverMCPServe(t *testing.T) {
	bin := plugintest.MCPFixture(t, t.TempDir())
	dir := t.TempDir()
	file := filepath.Join(dir, ".awf", "plugins.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf("plugins:\n  fix:\n    type: mcp\n    command: %s\n    annotations:\n      get-sum: {readOnlyHint: true}\n", bin)
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, map[string]any{
		"plugins_file": file,
		"plugin_tools": []map[string]any{{"plugin": "fix", "expose": []string{"echo", "get-sum", "spawn", "delete_all"}}},
		"intent":       map[string]any{"allow": []string{"read"}},
	})
	got := strings.Join(listNames(t, s), ",")
	if !strings.Contains(got, "fix_echo,fix_get-sum,fix_spawn") || strings.Contains(got, "fix_delete_all") {
		t.Fatalf("tools/list under allow [read] = %s", got)
	}
	if out, isErr := s.call(t, "fix_echo", map[string]any{"text": "over mcp-serve"}); isErr || out != "echo: over mcp-serve" {
		t.Fatalf("fix_echo: %v %s", isErr, out)
	}
	if out, isErr := s.call(t, "fix_delete_all", map[string]any{}); !isErr {
		t.Fatalf("destructive tool under allow [read]: %s", out)
	}
	out, isErr := s.call(t, "fix_spawn", map[string]any{})
	child, _ := strconv.Atoi(out)
	if isErr || child == 0 {
		t.Fatalf("spawn: %s", out)
	}
	recs := s.records(t)
	if len(recs) != 3 || recs[0]["source"] != "mcp:fix" {
		t.Fatalf("records %v", recs)
	}
	_ = s.session.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for alive(child) || len(plugintest.Processes(t, bin)) > 0 {
		select {
		case <-ctx.Done():
			t.Fatalf("left running after mcp-serve ended: grandchild %v, servers %v", alive(child), plugintest.Processes(t, bin))
		case <-time.After(20 * time.Millisecond): // polling /proc
		}
	}
}

func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}
