package cli_test

import (
	"strings"
	"testing"
)

// keyEnvWorkflow keeps its model key in a variable of its own choosing.
const keyEnvWorkflow = `name: keyed
states:
  initial: ask
  ask:
    type: agent
    provider: openai_compatible
    prompt: hi
    options:
      base_url: http://127.0.0.1:9/v1
      model: m
      api_key_env: MODELAUTH
    mcp_proxy:
      enable: true
    on_success: done
    on_failure: done
  done:
    type: terminal
`

// TestCallHidesTheStepsKeyFromBash: `awf call --workflow --step` builds the step's proxy as
// `awf run` does, so Bash cannot print the variable the step's api_key_env names.
func TestCallHidesTheStepsKeyFromBash(t *testing.T) {
	dir := project(t, map[string]string{"keyed.yaml": keyEnvWorkflow})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "MODELAUTH=secret"}
	bash := []string{"call", "tool-destructive", "Bash", "--args", `{"command":"echo [$MODELAUTH]"}`}

	// Without the step, nothing says the variable is a key: Bash sees it (so the test can fail).
	r := awf(t, dir, env, bash...)
	if r.code != 0 || !strings.Contains(r.stdout, "[secret]") {
		t.Fatalf("without --workflow: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = awf(t, dir, env, append(bash, "--workflow", "keyed", "--step", "ask")...)
	if r.code != 0 || !strings.Contains(r.stdout, "[]") || strings.Contains(r.stdout+r.stderr, "secret") {
		t.Fatalf("with --workflow keyed --step ask: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
