package fakemodel_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
)

// TestClaude: claude -p with awf attached through --mcp-config, built-ins removed.
func TestClaude(t *testing.T) {
	e := newCLIEnv(t, "claude")
	mcpConfig := filepath.Join(e.state, "mcp.json")
	writeJSON(t, mcpConfig, map[string]any{"mcpServers": map[string]any{"awf": map[string]any{
		"type": "stdio", "command": e.awf, "args": []string{"mcp-serve", "--config", e.serveConfig}, "env": map[string]any{},
	}}})
	env := e.env(
		"ANTHROPIC_BASE_URL="+e.fake.URL, "ANTHROPIC_API_KEY=sk-ant-fake",
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "ENABLE_TOOL_SEARCH=false",
	)
	e.run(t, env, "-p", "Read secret.txt, then run the command.", "--output-format", "json",
		"--mcp-config", mcpConfig, "--strict-mcp-config", "--tools", "",
		"--allowedTools", "mcp__awf__Read,mcp__awf__Bash", "--permission-mode", "dontAsk")
	final, err := claudeFinal(e.stdout)
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s", err, clip(e.stdout))
	}
	e.check(t, []string{"mcp__awf__Bash", "mcp__awf__Edit", "mcp__awf__Glob", "mcp__awf__Grep", "mcp__awf__Read", "mcp__awf__Write"}, final)
}

// claudeFinal reads `claude -p --output-format json`: one object whose "result" is the final
// answer; "is_error" and "subtype" say whether the run succeeded.
func claudeFinal(stdout []byte) (string, error) {
	var out struct {
		Type    string  `json:"type"`
		Subtype string  `json:"subtype"`
		IsError bool    `json:"is_error"`
		Result  string  `json:"result"`
		Cost    float64 `json:"total_cost_usd"`
		Session string  `json:"session_id"`
	}
	if err := json.Unmarshal(stdout, &out); err != nil {
		return "", fmt.Errorf("claude stdout is not one JSON object: %v", err)
	}
	if out.Type != "result" || out.IsError || out.Subtype != "success" {
		return "", fmt.Errorf("claude reports type=%q subtype=%q is_error=%v", out.Type, out.Subtype, out.IsError)
	}
	return out.Result, nil
}
