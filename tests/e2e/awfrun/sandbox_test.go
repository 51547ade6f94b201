package awfrun_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/sandbox/sandboxtest"
	"github.com/awf-dev/awf/tests/e2e/fakemodel"
)

// TestReadStepBashIsSandboxed (docs/decisions/0012-kernel-sandbox.md): a real agent CLI in an `allow: [read]` step is offered
// awf's Bash as a read-only shell; it runs `git log` through it and is denied a write by the
// kernel, and both calls are recorded with their sandbox.
func TestReadStepBashIsSandboxed(t *testing.T) {
	sandboxtest.Require(t, awfBin)
	for _, c := range clis {
		t.Run(c.name, func(t *testing.T) {
			var touched string
			p := newProject(t, c, func(p *project) fakemodel.Script {
				touched = filepath.Join(p.dir, "made-by-"+p.marker)
				return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{
					{Name: "Bash", Args: map[string]any{"command": "git log --format=%s"}},
					{Name: "Bash", Args: map[string]any{"command": "touch " + touched}},
				}}
			}, "      enable: true\n      intent:\n        allow: [read]")
			for _, args := range [][]string{{"init", "-q"}, {"add", "secret.txt"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "commit-" + p.marker}} {
				cmd := exec.Command("git", args...)
				cmd.Dir = p.dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Skipf("git %v: %v %s", args, err, out)
				}
			}
			sum, _ := p.run(t)
			results := strings.Join(p.fake.ToolResults(), "\n")
			if strings.Contains(results, "not allowed") {
				t.Fatalf("the helper enforces the sandbox, yet Bash was refused: %q", results)
			}
			if !strings.Contains(results, "commit-"+p.marker) || !strings.Contains(results, "[sandbox: the kernel denied this") {
				t.Errorf("tool results: %q", p.fake.ToolResults())
			}
			if _, err := os.Stat(touched); err == nil {
				t.Error("the read step's Bash created a file")
			}
			b, err := os.ReadFile(filepath.Join(p.dir, ".awf", "runs", sum.RunID, "activity.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if len(lines) != 2 {
				t.Fatalf("activity:\n%s", b)
			}
			for i, want := range []string{"success", "error"} {
				var r struct {
					Tool, Outcome string
					Intent        struct{ Variant string }
					Sandbox       *struct {
						Enforced    bool
						Policy      string
						LandlockABI int `json:"landlock_abi"`
					}
				}
				must(t, json.Unmarshal([]byte(lines[i]), &r))
				if r.Tool != "Bash" || r.Outcome != want || r.Intent.Variant != "read" || r.Sandbox == nil || !r.Sandbox.Enforced || r.Sandbox.Policy != "read" || r.Sandbox.LandlockABI < 1 {
					t.Errorf("record %d: %s", i, lines[i])
				}
			}
			if !strings.Contains(sum.Steps[0].Tools, "Bash sandboxed: 2 read") {
				t.Errorf("step summary %q", sum.Steps[0].Tools)
			}
			waitNoLeftovers(t, p.home[:len(p.home)-len("/home")])
		})
	}
}
