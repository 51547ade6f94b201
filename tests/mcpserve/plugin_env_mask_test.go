package mcpserve_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestPluginEnvIsMaskedByMCPServe: the values .awf/plugins.yaml gives an MCP server in env:
// (one written in clear under a secret-looking name, one under a plain name expanded from
// ${VAR}) reach the server, which prints them in its error result, a log notification and on
// stderr, and a model repeats one in a call's input. The calls go through a real `awf
// mcp-serve`, whose activity records, log and `awf activity list` (table and JSON) hold neither
// value, as `awf run` masks them (docs/decisions/0011-values-are-data-secrets-are-masked.md).
func TestPluginEnvIsMaskedByMCPServe(t *testing.T) {
	const clear, expanded = "some-innocent-value-123", "eu-central-innocent-456"
	t.Setenv("AWF_MASK_TEST_REGION", expanded) // mcp-serve inherits it and expands ${…} from it
	s, _ := fixtureServe(t, "    env:\n      TOKEN_X: "+clear+"\n      FIX_REGION: ${AWF_MASK_TEST_REGION}\n      FIXTURE_ENV_LEAK: TOKEN_X,FIX_REGION\n", nil)
	out, isErr := s.call(t, "fix_leak-env", map[string]any{})
	if !isErr || !strings.Contains(out, clear) || !strings.Contains(out, expanded) {
		// the agent gets the server's answer as it is: what is masked is awf's own record of it
		t.Fatalf("leak-env did not print both values, so the test proves nothing: %v %s", isErr, out)
	}
	if out, _ := s.call(t, "fix_echo", map[string]any{"text": "a model repeats " + clear}); !strings.Contains(out, clear) {
		t.Fatalf("echo: %s", out)
	}
	_ = s.session.Close()
	_ = s.cmd.Wait() // the log and the record are complete once mcp-serve has ended
	act, err := os.ReadFile(s.activity)
	if err != nil || !strings.Contains(string(act), "fix_leak-env") {
		t.Fatalf("activity file: %v %s", err, act)
	}
	logText, _ := os.ReadFile(s.log)
	sources := map[string]string{"activity.jsonl": string(act), "log": string(logText)}
	for _, format := range []string{"table", "json"} {
		cmd := exec.Command(awfBin, "activity", "list", "--file", s.activity, "--format", format)
		cmd.Dir, cmd.Env = s.root, append(os.Environ(), "HOME="+t.TempDir(), "TMPDIR="+t.TempDir())
		b, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(b), "leak-env") {
			t.Fatalf("activity list --format %s: %v\n%s", format, err, b)
		}
		sources["activity list --format "+format] = string(b)
	}
	for where, text := range sources {
		for _, v := range []string{clear, expanded} {
			if strings.Contains(text, v) {
				t.Errorf("%s holds the plugin env value %q in clear", where, v)
			}
		}
	}
}
