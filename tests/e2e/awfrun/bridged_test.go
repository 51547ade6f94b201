package awfrun_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
	"github.com/awf-dev/awf/tests/e2e/fakemodel"
)

// TestBridgedMCPToolThroughRun: a real agent CLI (claude) and the in-process openai_compatible
// provider each call a tool of a bridged MCP server (the project's fixture server, `type: mcp`)
// through `awf run`: the model is offered the bridged tool, the server's answer reaches the
// model, and the activity record names the source mcp:fix.
func TestBridgedMCPToolThroughRun(t *testing.T) {
	fixture := plugintest.MCPFixture(t, t.TempDir())
	for _, provider := range []string{"claude", "openai_compatible"} {
		t.Run(provider, func(t *testing.T) {
			toolName := "fix_echo"
			if provider == "claude" {
				toolName = clis[0].toolName("fix_echo")
			}
			p := newProject(t, clis[0], func(p *project) fakemodel.Script {
				return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{{Name: "fix_echo", Args: map[string]any{"text": p.marker}}}}
			}, "")
			opts := "{}"
			if provider == "openai_compatible" {
				opts = fmt.Sprintf(`{base_url: %q, model: fake-model, api_key_env: FAKEMODEL_API_KEY}`, p.fake.URL+"/v1")
				p.env = append(p.env, "FAKEMODEL_API_KEY=sk-e2e")
			}
			wf := fmt.Sprintf(`name: e2e
states:
  initial: agent
  agent:
    type: agent
    provider: %s
    prompt: Echo the marker with the fixture's echo tool.
    options: %s
    timeout: 4m
    mcp_proxy:
      enable: true
      intercept_builtins: true
      plugin_tools:
        - plugin: fix
          expose: [echo]
      intent:
        allow: [read]
    on_success: done
    on_failure: failed
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`, provider, opts)
			must(t, os.WriteFile(filepath.Join(p.dir, ".awf", "workflows", "e2e.yaml"), []byte(wf), 0o644))
			decl := fmt.Sprintf("plugins:\n  fix:\n    type: mcp\n    command: %s\n", fixture)
			must(t, os.WriteFile(filepath.Join(p.dir, ".awf", "plugins.yaml"), []byte(decl), 0o644))
			sum, _ := p.run(t)

			offered := false
			for _, r := range p.fake.Requests() {
				for _, tl := range r.OfferedTools {
					offered = offered || tl == toolName
				}
			}
			if !offered {
				t.Errorf("the model was never offered %s:\n%s", toolName, p.fake.Summary())
			}
			if results := strings.Join(p.fake.ToolResults(), "\n"); !strings.Contains(results, "echo: "+p.marker) {
				t.Errorf("the bridged server's answer did not reach the model: %q", p.fake.ToolResults())
			}
			recs := p.records(t, sum.RunID)
			if len(recs) != 1 || recs[0].Tool != "fix_echo" || recs[0].Source != "mcp:fix" || recs[0].Outcome != "success" {
				t.Fatalf("activity %+v", recs)
			}
		})
	}
}
