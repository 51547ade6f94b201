package awfrun_test

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/tests/e2e/fakemodel"
)

// TestModeOffBashFindsNoKeyAbove: a real agent CLI, given a model key and another secret in its
// environment, starts awf's MCP server; with the sandbox off, a Bash call reads
// /proc/<pid>/environ of each ancestor up to the MCP server (the reaper between them, then
// mcp-serve itself), and finds neither.
func TestModeOffBashFindsNoKeyAbove(t *testing.T) {
	const walk = `p=$PPID; for i in 1 2 3 4 5 6; do c=$(cat /proc/$p/comm); echo "visit=$c"; tr '\0' '\n' </proc/$p/environ; echo
case $c in awf|awf-serve) echo reached-serve; break;; esac; p=$(cut -d' ' -f4 /proc/$p/stat); done`
	for _, c := range clis {
		t.Run(c.name, func(t *testing.T) {
			p := newProject(t, c, func(p *project) fakemodel.Script {
				return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{
					{Name: "Bash", Args: map[string]any{"command": walk}},
				}}
			}, "      enable: true\n      intercept_builtins: true\n      sandbox: {mode: \"off\"}")
			planted := "planted-walk-" + p.marker
			p.env = append(p.env, "AWF_E2E_WALK_SECRET_KEY="+planted)
			secrets := []string{planted}
			for _, kv := range c.env(t, p.fake.URL, p.home) {
				if k, v, _ := strings.Cut(kv, "="); strings.HasSuffix(k, "_KEY") && len(v) >= 6 {
					secrets = append(secrets, v)
				}
			}
			sum, _ := p.run(t)
			results := strings.Join(p.fake.ToolResults(), "\n")
			if !strings.Contains(results, "reached-serve") {
				t.Fatalf("the walk did not reach mcp-serve: %q\nsteps: %+v", results, sum.Steps)
			}
			for _, s := range secrets {
				if strings.Contains(results, s) {
					t.Errorf("Bash read %q above it:\n%s", s, results)
				}
			}
			waitNoLeftovers(t, p.home[:len(p.home)-len("/home")])
		})
	}
}
