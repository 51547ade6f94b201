package yamlrepo

import (
	"slices"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestEnvPassthrough(t *testing.T) {
	w, ds := loadText(t, `name: p
states:
  initial: a
  a:
    type: agent
    provider: claude
    prompt: hi
    mcp_proxy:
      enable: true
      env_passthrough: [GITHUB_TOKEN, NPM_TOKEN]
    on_success: done
  done:
    type: terminal
`)
	if ds != "" {
		t.Fatalf("diagnostics: %s", ds)
	}
	p := w.States["a"].Spec.(*workflow.AgentSpec).MCPProxy
	if !slices.Equal(p.EnvPassthrough, []string{"GITHUB_TOKEN", "NPM_TOKEN"}) {
		t.Errorf("env_passthrough = %v", p.EnvPassthrough)
	}
	_, ds = loadText(t, `name: p
states:
  initial: a
  a:
    type: agent
    provider: claude
    prompt: hi
    mcp_proxy:
      enable: true
      env_passthrough: GITHUB_TOKEN
      env_passtrough: [X]
    on_success: done
  done:
    type: terminal
`)
	if !strings.Contains(ds, "env_passthrough") || !strings.Contains(ds, "USER.MCP_PROXY.UNKNOWN_KEY") {
		t.Errorf("diagnostics: %s", ds)
	}
}
