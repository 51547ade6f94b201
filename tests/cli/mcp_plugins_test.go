package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

const mcpWorkflow = `name: bridged
states:
  initial: ask
  ask:
    type: agent
    provider: openai_compatible
    prompt: hi
    mcp_proxy:
      enable: true
      plugin_tools:
        - plugin: fix
          expose: [%s]
      intent:
        allow: [read]
    on_success: done
    on_failure: done
  done:
    type: terminal
`

// mcpProject is a project whose plugins.yaml bridges the fixture MCP server as plugin fix.
func mcpProject(t *testing.T, expose string) string {
	t.Helper()
	bin := plugintest.MCPFixture(t, t.TempDir())
	dir := project(t, map[string]string{"bridged.yaml": fmt.Sprintf(mcpWorkflow, expose)})
	body := fmt.Sprintf("plugins:\n  fix:\n    type: mcp\n    command: %s\n    env: {FIXTURE_FLIP: \"${FLIP}\"}\n    annotations:\n      get-sum: {readOnlyHint: true}\n", bin)
	if err := os.WriteFile(filepath.Join(dir, ".awf", "plugins.yaml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestMCPServerAsPlugin drives a bridged MCP server through bin/awf: validate, awf call under the
// step's intent rule, the activity record's source, pinning and drift.
func TestMCPServerAsPlugin(t *testing.T) {
	dir := mcpProject(t, `echo, "get-*", delete_all`)
	env := []string{"FLIP=", "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	step := []string{"--workflow", "bridged", "--step", "ask"}
	steps := []struct {
		name     string
		env      []string
		args     []string
		wantCode int
		want     string
	}{
		{"validate", nil, []string{"validate", "bridged"}, 0, ""},
		{"list shows where annotations come from", nil, []string{"plugins", "list"}, 0, "readOnly !destructive (override)"},
		{"read tool", nil, append([]string{"call", "tool-read", "fix_echo", "--args", `{"text":"hi"}`}, step...), 0, "echo: hi"},
		{"override makes get-sum read-only", nil, append([]string{"call", "tool-read", "fix_get-sum", "--args", `{"a":2,"b":3}`}, step...), 0, "5"},
		{"destructive tool refused under allow [read]", nil, append([]string{"call", "tool-destructive", "fix_delete_all", "--args", `{}`}, step...), 1, "not allowed"},
		{"records name mcp:fix", nil, []string{"activity", "list", "--run", "cli"}, 0, "mcp:fix"},
		{"lock", nil, []string{"plugins", "lock"}, 0, "pinned 13 tool(s)"},
		{"lock --check, unchanged", nil, []string{"plugins", "lock", "--check"}, 0, "up to date"},
		{"lock --check, drift", []string{"FLIP=1"}, []string{"plugins", "lock", "--check"}, 1, "tool echo: description changed"},
		{"changed tool refused before the call", []string{"FLIP=1"}, append([]string{"call", "tool-read", "fix_echo", "--args", `{"text":"hi"}`}, step...), 1, "USER.MCP_PROXY.TOOL_CHANGED"},
		{"validate reports drift", []string{"FLIP=1"}, []string{"validate", "bridged"}, 1, "TOOL_CHANGED"},
	}
	for _, s := range steps {
		r := awf(t, dir, append(append([]string(nil), env...), s.env...), s.args...)
		if r.code != s.wantCode || !strings.Contains(r.stdout+r.stderr, s.want) {
			t.Fatalf("%s: exit %d (want %d):\n%s%s\nwant %q", s.name, r.code, s.wantCode, r.stdout, r.stderr, s.want)
		}
	}
}

func TestMCPValidateUnknownTool(t *testing.T) {
	dir := mcpProject(t, `ecoh, "nope-*"`)
	r := awf(t, dir, []string{"FLIP=", "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}, "validate", "bridged")
	out := r.stdout + r.stderr
	if r.code == 0 || !strings.Contains(out, "did you mean 'echo'") || !strings.Contains(out, `matches "nope-*"`) {
		t.Fatalf("exit %d:\n%s", r.code, out)
	}
}
