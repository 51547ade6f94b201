package fakemodel_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodex: codex exec with awf attached through -c mcp_servers.awf.* overrides and a private
// CODEX_HOME; every built-in that can be switched off is off.
func TestCodex(t *testing.T) {
	e := newCLIEnv(t, "codex")
	codexHome := filepath.Join(e.home, ".codex")
	if err := os.Mkdir(codexHome, 0o700); err != nil { // codex refuses a CODEX_HOME that does not exist
		t.Fatal(err)
	}
	env := e.env("CODEX_HOME="+codexHome, "FAKEMODEL_API_KEY=sk-fake")
	toml := func(s string) string { return fmt.Sprintf("%q", s) } // Go quoting is valid TOML for these paths
	e.run(t, env, "exec", "--json", "--skip-git-repo-check",
		"--disable", "plugins", "--disable", "apps",
		"-c", "analytics.enabled=false", "-c", "check_for_update_on_startup=false",
		"--disable", "shell_tool", "--disable", "multi_agent", "--disable", "goals", "--disable", "view_image",
		"-c", `web_search="disabled"`,
		"-c", "model_provider=fakemodel",
		"-c", `model_providers.fakemodel={name="fakemodel",base_url=`+toml(e.fake.URL+"/v1")+`,wire_api="responses",env_key="FAKEMODEL_API_KEY"}`,
		"-c", "mcp_servers.awf.command="+toml(e.awf),
		"-c", "mcp_servers.awf.args=["+toml("mcp-serve")+","+toml("--config")+","+toml(e.serveConfig)+"]",
		"-c", `mcp_servers.awf.default_tools_approval_mode="approve"`,
		"-m", "fake-model",
		"Read secret.txt, then run the command.")
	final, err := codexFinal(e.stdout)
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s", err, clip(e.stdout))
	}
	e.check(t, []string{
		"list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource", "request_user_input",
		"mcp__awf/Bash", "mcp__awf/Edit", "mcp__awf/Glob", "mcp__awf/Grep", "mcp__awf/Read", "mcp__awf/Write",
	}, final)
}

// codexFinal reads `codex exec --json` (JSON Lines): the final answer is the text of the last
// item.completed whose item.type is "agent_message"; "turn.failed" or an "error" event means
// the run failed. (An item of type "error" can be a mere warning, e.g. unknown model metadata.)
func codexFinal(stdout []byte) (string, error) {
	events, err := jsonLines(stdout)
	if err != nil {
		return "", fmt.Errorf("codex stdout: %v", err)
	}
	final, found := "", false
	for _, ev := range events {
		switch ev["type"] {
		case "turn.failed", "error":
			return "", fmt.Errorf("codex reports %v", ev)
		case "item.completed":
			item, _ := ev["item"].(map[string]any)
			if item["type"] == "agent_message" {
				final, _ = item["text"].(string)
				found = true
			}
		}
	}
	if !found {
		return "", fmt.Errorf("codex printed no agent_message item")
	}
	return strings.TrimSpace(final), nil
}
