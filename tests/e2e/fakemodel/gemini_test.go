package fakemodel_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestGemini: gemini -p with awf declared in private settings under GEMINI_CLI_HOME and a policy
// that leaves only awf's tools.
func TestGemini(t *testing.T) {
	e := newCLIEnv(t, "gemini")
	// GEMINI_CLI_SYSTEM_SETTINGS_PATH is no option for a temp dir: gemini skips a system settings
	// file unless it and every parent directory are owned by root and not group/world-writable.
	// The user settings file under GEMINI_CLI_HOME has no such check.
	geminiHome := filepath.Join(e.state, "gemini-home")
	if err := os.MkdirAll(filepath.Join(geminiHome, ".gemini"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, filepath.Join(geminiHome, ".gemini", "settings.json"), map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"general":   map[string]any{"enableAutoUpdate": false},
		"mcpServers": map[string]any{"awf": map[string]any{
			"command": e.awf, "args": []string{"mcp-serve", "--config", e.serveConfig}, "trust": true,
		}},
	})
	policy := filepath.Join(e.state, "policy.toml")
	// toolName is required in every rule; with mcpName it matches that server's tools.
	writeFile(t, policy, `[[rule]]
toolName = "*"
decision = "deny"
priority = 900

[[rule]]
mcpName = "awf"
toolName = "*"
decision = "allow"
priority = 950
`)
	env := e.env("GEMINI_CLI_HOME="+geminiHome, "GOOGLE_GEMINI_BASE_URL="+e.fake.URL, "GEMINI_API_KEY=fake-gemini-key")
	e.run(t, env, "-p", "Read secret.txt, then run the command.", "--output-format", "json",
		"--skip-trust", "--allowed-mcp-server-names", "awf", "--policy", policy)
	final, err := geminiFinal(e.stdout)
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s", err, clip(e.stdout))
	}
	e.check(t, []string{"mcp_awf_Bash", "mcp_awf_Edit", "mcp_awf_Glob", "mcp_awf_Grep", "mcp_awf_Read", "mcp_awf_Write"}, final)
}

// geminiFinal reads `gemini -p --output-format json`: one object whose "response" is the final
// answer; "error" {type, message, code} is set when the run failed.
func geminiFinal(stdout []byte) (string, error) {
	var out struct {
		SessionID string `json:"session_id"`
		Response  string `json:"response"`
		Error     *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(stdout, &out); err != nil {
		return "", fmt.Errorf("gemini stdout is not one JSON object: %v", err)
	}
	if out.Error != nil {
		return "", fmt.Errorf("gemini reports %s: %s (code %v)", out.Error.Type, out.Error.Message, out.Error.Code)
	}
	return out.Response, nil
}
