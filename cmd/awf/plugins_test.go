package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

func pluginsProject(t *testing.T, bins map[string]string) string {
	t.Helper()
	root, _ := plugintest.Project(t, fmt.Sprintf(`plugins:
  echo: {command: %s}
  notes: {command: %s, config: {dir: notes}}
  off: {command: %s, disabled: true}
  broken: {command: bin/plugins/missing}
`, bins["echo"], bins["notes"], bins["echo"]))
	return root
}

// TestPluginsCommand builds the example plugins once (this package has no TestMain to clean a
// shared build up) and runs every plugin-related check of cmd/awf on them.
func TestPluginsCommand(t *testing.T) {
	bins := plugintest.BuildTo(t, t.TempDir(), "echo", "notes")
	t.Run("list json", func(t *testing.T) { testPluginsListJSON(t, bins) })
	t.Run("list text", func(t *testing.T) { testPluginsListText(t, bins) })
	t.Run("mcp-serve providers", func(t *testing.T) { testPluginProviders(t, bins) })
}

func runPluginsList(t *testing.T, root string, args ...string) (string, error) {
	t.Helper()
	cmd := newPluginsCmd(&globalFlags{root: root})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true // as the root command sets them
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(append([]string{"list"}, args...))
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func testPluginsListJSON(t *testing.T, bins map[string]string) {
	root := pluginsProject(t, bins)
	out, err := runPluginsList(t, root, "--format", "json")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 3 {
		t.Errorf("exit = %v, want 3 because plugin broken cannot start", err)
	}
	var doc struct{ Plugins []pluginRow }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	states := map[string]pluginRow{}
	for _, p := range doc.Plugins {
		states[p.Name] = p
	}
	if states["echo"].State != "running" || states["echo"].Version != "1.0.0" || states["off"].State != "disabled" ||
		states["broken"].State != "failed" || !strings.Contains(states["broken"].Error, "does not exist") {
		t.Errorf("plugins = %+v", doc.Plugins)
	}
	want := map[string]string{"get": "read", "list": "read", "put": "write", "delete": "destructive"}
	ops := states["notes"].Operations
	if len(ops) != 4 {
		t.Fatalf("notes operations = %+v", ops)
	}
	for _, op := range ops {
		if string(op.CallWith) != want[op.Name] || op.Tool != "notes_"+op.Name || op.Annotations.IdempotentHint == nil {
			t.Errorf("operation %+v, want call_with %s", op, want[op.Name])
		}
	}
	for name, bin := range bins {
		if pids := plugintest.Processes(t, bin); len(pids) != 0 {
			t.Errorf("%s processes left after `awf plugins list`: %v", name, pids)
		}
	}
}

func testPluginsListText(t *testing.T, bins map[string]string) {
	root := pluginsProject(t, bins)
	out, _ := runPluginsList(t, root)
	for _, s := range []string{"notes  running  v1.0.0", "notes_delete", "destructive", "!readOnly destructive idempotent !openWorld", "off  disabled", "broken  failed", "error: "} {
		if !strings.Contains(out, s) {
			t.Errorf("text output lacks %q:\n%s", s, out)
		}
	}
	out, err := runPluginsList(t, root, "--no-start")
	if err != nil || !strings.Contains(out, "echo  not started") || strings.Contains(out, "OPERATION") {
		t.Errorf("--no-start = %v\n%s", err, out)
	}
	empty := t.TempDir()
	if out, err := runPluginsList(t, empty); err != nil || !strings.Contains(out, "No plugins declared") {
		t.Errorf("no plugins.yaml = %v\n%s", err, out)
	}
	if _, err := runPluginsList(t, root, "--format", "yaml"); err == nil {
		t.Error("unknown format accepted")
	}
}

func testPluginProviders(t *testing.T, bins map[string]string) {
	root := pluginsProject(t, bins)
	provs := pluginProviders(toolset.Spec{
		Root:        root,
		PluginTools: []toolset.PluginTools{{Plugin: "echo", Expose: []string{"echo"}}, {Plugin: "notes", Expose: []string{"get"}}},
	}, zap.NewNop())
	if len(provs) != 2 {
		t.Fatalf("providers = %d", len(provs))
	}
	defs, err := provs[1].ListTools(context.Background())
	if err != nil || len(defs) != 1 || defs[0].Name != "notes_get" {
		t.Fatalf("ListTools = %+v, %v", defs, err)
	}
	res, err := provs[0].CallTool(context.Background(), "echo_echo", json.RawMessage(`{"text":"hi"}`))
	if err != nil || res.JoinedText() != "hi" {
		t.Fatalf("CallTool = %+v, %v", res, err)
	}
	for _, p := range provs { // as the router's Close does
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for name, bin := range bins {
		if pids := plugintest.Processes(t, bin); len(pids) != 0 {
			t.Errorf("%s processes after the providers closed: %v", name, pids)
		}
	}
	if provs := pluginProviders(toolset.Spec{}, zap.NewNop()); provs != nil {
		t.Error("a config without plugin_tools needs no host")
	}
	h := projectPluginHost(root, zap.NewNop())
	defer h.Close()
	if decls, err := h.Plugins(context.Background()); err != nil || len(decls) != 4 {
		t.Errorf("project host declarations = %v, %v", decls, err)
	}
}
