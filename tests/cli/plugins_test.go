package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const pluginWorkflow = `name: plugged
states:
  initial: ask
  ask:
    type: agent
    provider: openai_compatible
    prompt: hi
    mcp_proxy:
      enable: true
      plugin_tools:
        - plugin: notse
          expose: [get]
        - plugin: notes
          expose: [gett, put]
        - plugin: echo
          expose: [echo]
        - plugin: echo
          expose: [echo]
    on_success: done
    on_failure: done
  done:
    type: terminal
`

func withPlugins(t *testing.T, dir string) {
	t.Helper()
	body := fmt.Sprintf("plugins:\n  echo:\n    command: %s/echo\n  notes:\n    command: %s/notes\n    config:\n      dir: %s\n", pluginDir, pluginDir, filepath.Join(dir, "notes"))
	if err := os.WriteFile(filepath.Join(dir, ".awf", "plugins.yaml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPluginValidationCodes checks the three plugin codes, with positions, on validate and run.
func TestPluginValidationCodes(t *testing.T) {
	dir := project(t, map[string]string{"plugged.yaml": pluginWorkflow})
	withPlugins(t, dir)
	want := []string{
		"plugged.yaml:11:19: error:", "USER.MCP_PROXY.UNKNOWN_PLUGIN", "did you mean 'notes'",
		"plugged.yaml:14:20: error:", "USER.MCP_PROXY.UNKNOWN_OPERATION", "did you mean 'get'",
		"plugged.yaml:18:20: error:", "USER.MCP_PROXY.NAME_COLLISION", "echo_echo",
	}
	for _, cmd := range [][]string{{"validate", "plugged"}, {"run", "plugged"}} {
		r := awf(t, dir, nil, cmd...)
		all := r.stdout + r.stderr
		if r.code != 1 {
			t.Fatalf("%v: exit %d\n%s", cmd, r.code, all)
		}
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%v output lacks %q:\n%s", cmd, w, all)
			}
		}
		if strings.Contains(all, "▶") {
			t.Errorf("%v ran a step of an invalid workflow", cmd)
		}
	}
}

func TestPluginsList(t *testing.T) {
	dir := project(t, nil)
	if err := os.MkdirAll(filepath.Join(dir, ".awf"), 0o755); err != nil {
		t.Fatal(err)
	}
	withPlugins(t, dir)
	r := awf(t, dir, nil, "plugins", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "notes_delete") || !strings.Contains(r.stdout, "destructive") || !strings.Contains(r.stdout, "running") {
		t.Fatalf("plugins list: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = awf(t, dir, nil, "call", "tool-write", "notes_put", "--args", `{"key":"a","text":"b"}`)
	if r.code == 0 {
		t.Fatalf("notes_put without --workflow must be unknown (no plugin tools exposed): %s", r.stdout)
	}
}

const notesWorkflow = `name: notes
states:
  initial: ask
  ask:
    type: agent
    provider: openai_compatible
    prompt: hi
    mcp_proxy:
      enable: true
      plugin_tools:
        - plugin: notes
          expose: [get, put, delete]
      intent:
        allow: [read, write]
    on_success: done
    on_failure: done
  done:
    type: terminal
`

// TestCallPluginToolsOfAStep: `awf call --workflow W --step S` serves exactly what the step
// exposes, plugin tools included, under the step's intent rules.
func TestCallPluginToolsOfAStep(t *testing.T) {
	dir := project(t, map[string]string{"notes.yaml": notesWorkflow})
	withPlugins(t, dir)
	step := []string{"--workflow", "notes", "--step", "ask"}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"put through the write door", []string{"call", "tool-write", "notes_put", "--args", `{"key":"k","text":"from awf call"}`}, 0, "k"},
		{"get through the read door", []string{"call", "tool-read", "notes_get", "--args", `{"key":"k"}`}, 0, "from awf call"},
		{"delete is not allowed in this step", []string{"call", "tool-destructive", "notes_delete", "--args", `{"key":"k"}`}, 1, "not allowed"},
		{"unknown step", []string{"call", "tool-read", "Read", "--workflow", "notes", "--step", "aks"}, 1, "did you mean 'ask'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if !strings.Contains(strings.Join(args, " "), "--step") {
				args = append(args, step...)
			}
			r := awf(t, dir, nil, args...)
			if r.code != tc.wantCode || !strings.Contains(r.stdout+r.stderr, tc.want) {
				t.Fatalf("exit %d (want %d):\n%s%s\nwant %q", r.code, tc.wantCode, r.stdout, r.stderr, tc.want)
			}
		})
	}
}
