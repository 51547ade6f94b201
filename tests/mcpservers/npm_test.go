// Package mcpservers runs awf's bridged-plugin support (`type: mcp`) against real MCP servers
// from npm, pinned in package.json and installed by install.sh into ~/.cache/awf/mcp-servers.
// The tests skip when npm or the registry is unavailable.
package mcpservers

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/tools/pluginadapter"
)

var binDir, installErr = install()

func install() (string, error) {
	if _, err := exec.LookPath("npm"); err != nil {
		return "", err
	}
	out, err := exec.Command("./install.sh").Output()
	return strings.TrimSpace(string(out)), err
}

func router(t *testing.T, manifest string, allow []tool.Variant, entries ...toolset.PluginTools) (*routing.Exposure, *plugins.Host) {
	t.Helper()
	requireServers(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("ANTHROPIC_API_KEY", "sk-must-not-leak")
	root := t.TempDir()
	file := filepath.Join(root, ".awf", "plugins.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	h := plugins.New(plugins.Options{Root: root, File: file})
	t.Cleanup(func() { _ = h.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := routing.NewRouter(ctx, routing.Options{}, pluginadapter.Providers(h, entries)...)
	if err != nil {
		t.Fatalf("NewRouter: %v", err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return routing.NewExposure(r, routing.IntentSettings{Strict: true, Allow: allow}), h
}

func pidsOf(exe string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if strings.Contains(string(cmdline), exe) {
			out = append(out, pid)
		}
	}
	return out
}

func TestServerEverythingOverStdio(t *testing.T) {
	manifest := fmt.Sprintf("plugins:\n  everything:\n    type: mcp\n    command: %s/mcp-server-everything\n    env: {AWF_MARK: awf-test-%d}\n", binDir, os.Getpid())
	exp, h := router(t, manifest, []tool.Variant{tool.VariantRead},
		toolset.PluginTools{Plugin: "everything", Expose: []string{"echo", "get-*", "toggle-simulated-logging"}})
	var names []string
	for _, d := range exp.ListTools() {
		names = append(names, d.Name)
	}
	list := strings.Join(names, ",")
	if !strings.Contains(list, "everything_echo,") || !strings.Contains(list, "everything_get-sum") || strings.Contains(list, "toggle") {
		t.Errorf("tools under allow [read]: %s", list)
	}
	ctx := context.Background()
	if res := exp.CallTool(ctx, "everything_echo", json.RawMessage(`{"message":"hi"}`)); res.IsError || !strings.Contains(res.JoinedText(), "hi") {
		t.Errorf("echo = %+v", res)
	}
	if res := exp.CallTool(ctx, "everything_get-tiny-image", json.RawMessage(`{}`)); res.IsError || !strings.Contains(res.JoinedText(), "[image image/png, ") ||
		!strings.Contains(res.ModelText(), `"mimeType":"image/png"`) {
		t.Errorf("image = %.300s", res.ModelText())
	}
	env := exp.CallTool(ctx, "everything_get-env", json.RawMessage(`{}`)).JoinedText()
	if !strings.Contains(env, "AWF_MARK") || strings.Contains(env, "ANTHROPIC_API_KEY") {
		t.Errorf("environment the server sees: %.500s", env)
	}
	if res := exp.CallTool(ctx, "everything_toggle-simulated-logging", json.RawMessage(`{}`)); !res.IsError {
		t.Errorf("a write tool under allow [read] = %+v", res)
	}
	before := pidsOf(binDir + "/mcp-server-everything")
	if len(before) == 0 {
		t.Fatal("server process not found")
	}
	_ = h.Close()
	deadline := time.Now().Add(10 * time.Second)
	for len(pidsOf(binDir+"/mcp-server-everything")) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond) // polling /proc, not synchronising
	}
	if left := pidsOf(binDir + "/mcp-server-everything"); len(left) > 0 {
		t.Errorf("processes left after Close: %v", left)
	}
}

func TestServerMemory(t *testing.T) {
	manifest := fmt.Sprintf("plugins:\n  memory:\n    type: mcp\n    command: %s/mcp-server-memory\n    env: {MEMORY_FILE_PATH: \"${TMPDIR}/memory.json\"}\n", binDir)
	exp, _ := router(t, manifest, []tool.Variant{tool.VariantRead}, toolset.PluginTools{Plugin: "memory", Expose: []string{"read_graph", "delete_*"}})
	ctx := context.Background()
	if res := exp.CallTool(ctx, "memory_read_graph", json.RawMessage(`{}`)); res.IsError || !strings.Contains(res.JoinedText(), "entities") {
		t.Errorf("read_graph = %+v", res)
	}
	if res := exp.CallTool(ctx, "memory_delete_entities", json.RawMessage(`{"entityNames":["x"]}`)); !res.IsError || !strings.Contains(res.JoinedText(), "not allowed") {
		t.Errorf("destructive under allow [read] = %+v", res)
	}
}
