package fakemodel_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpencode: opencode run with a private config in OPENCODE_CONFIG holding the provider, the
// awf MCP server and a permission set that denies everything but awf's tools.
func TestOpencode(t *testing.T) {
	e := newCLIEnv(t, "opencode")
	config := filepath.Join(e.state, "opencode.json")
	writeJSON(t, config, map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"provider": map[string]any{"fakemodel": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "fakemodel",
			"options": map[string]any{"baseURL": e.fake.URL + "/v1", "apiKey": "sk-fake"},
			"models":  map[string]any{"fake-model": map[string]any{"name": "fake-model"}},
		}},
		"model": "fakemodel/fake-model", "small_model": "fakemodel/fake-model",
		"mcp": map[string]any{"awf": map[string]any{
			"type": "local", "command": []string{e.awf, "mcp-serve", "--config", e.serveConfig}, "enabled": true, "environment": map[string]any{},
		}},
		"permission": map[string]any{"*": "deny", "awf_*": "allow"},
	})
	env := e.env("OPENCODE_CONFIG="+config,
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_DEFAULT_PLUGINS=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1",
		// opencode installs packages into its config and cache dirs through the npm registry
		// (@opencode-ai/plugin, …) even with all of the above: send it to the fake, which
		// answers 404 and lists the attempt in SideRequests.
		"npm_config_registry="+e.fake.URL+"/npm-registry/")
	e.run(t, env, "run", "--format", "json", "Read secret.txt, then run the command.")
	final, err := opencodeFinal(e.stdout)
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s", err, clip(e.stdout))
	}
	e.check(t, []string{"awf_Bash", "awf_Edit", "awf_Glob", "awf_Grep", "awf_Read", "awf_Write"}, final)
}

// opencodeFinal reads `opencode run --format json` (JSON Lines of step_start, tool_use, text,
// step_finish, error events): the final answer is the text parts of the last step (the one whose
// step_finish reason is "stop"); an "error" event means the run failed.
func opencodeFinal(stdout []byte) (string, error) {
	events, err := jsonLines(stdout)
	if err != nil {
		return "", fmt.Errorf("opencode stdout: %v", err)
	}
	var step []string
	for _, ev := range events {
		part, _ := ev["part"].(map[string]any)
		switch ev["type"] {
		case "error":
			return "", fmt.Errorf("opencode reports %v", ev)
		case "step_start":
			step = nil
		case "text":
			if s, ok := part["text"].(string); ok {
				step = append(step, s)
			}
		}
	}
	if len(step) == 0 {
		return "", fmt.Errorf("opencode printed no text in its last step")
	}
	return strings.Join(step, ""), nil
}
