package awfrun_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/awf-dev/awf/tests/e2e/fakemodel"
)

var awfTools = []string{"Bash", "Edit", "Glob", "Grep", "Read", "Write"}

// TestAgentStepThroughProxy: for each CLI, `awf run` runs an agent step whose only tools are
// awf's; the model reads a file and runs Bash through the proxy; the calls are recorded, the
// file content reaches the model, the step's Output is the final answer, nothing is left running.
func TestAgentStepThroughProxy(t *testing.T) {
	for _, c := range clis {
		t.Run(c.name, func(t *testing.T) {
			p := newProject(t, c, func(p *project) fakemodel.Script {
				return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{
					{Name: "Read", Args: map[string]any{"file_path": p.file}},
					{Name: "Bash", Args: map[string]any{"command": "echo BASH-$((6*7))-" + p.marker}},
				}}
			}, "      enable: true\n      intercept_builtins: true")
			sum, _ := p.run(t)

			var want []string
			for _, tl := range awfTools {
				want = append(want, c.toolName(tl))
			}
			want = append(want, c.extra...)
			slices.Sort(want)
			sawTools := false
			for _, r := range p.fake.Requests() {
				if len(r.OfferedTools) == 0 {
					continue // side requests (titles, routing)
				}
				sawTools = true
				if got := slices.Sorted(slices.Values(r.OfferedTools)); !slices.Equal(got, want) {
					t.Errorf("tools offered to the model = %v, want exactly awf's %v", got, want)
				}
			}
			if !sawTools {
				t.Fatalf("no model request offered tools:\n%s", p.fake.Summary())
			}
			results := strings.Join(p.fake.ToolResults(), "\n")
			if !strings.Contains(results, p.marker) || !strings.Contains(results, p.bashMarker) {
				t.Errorf("the file content / Bash output did not reach the model: %q", p.fake.ToolResults())
			}
			out := sum.Steps[0].Output
			for _, m := range []string{finalText, p.marker, p.bashMarker} {
				if !strings.Contains(out, m) {
					t.Errorf("step Output lacks %q: %q", m, out)
				}
			}
			recs := p.records(t, sum.RunID)
			if len(recs) != 2 || recs[0].Tool != "Read" || recs[1].Tool != "Bash" {
				t.Fatalf("activity %+v", recs)
			}
			for i, v := range []string{"read", "destructive"} {
				if recs[i].Source != "builtin" || recs[i].Outcome != "success" || recs[i].Step != "agent" || recs[i].Intent.Variant != v {
					t.Errorf("record %d = %+v", i, recs[i])
				}
			}
			if !strings.Contains(sum.Steps[0].Tools, "Read×1 read") {
				t.Errorf("step summary %q", sum.Steps[0].Tools)
			}
			waitNoLeftovers(t, p.home[:len(p.home)-len("/home")])
		})
	}
}

// TestRefusedCallIsRecorded: with `allow: [read]` in split mode the model can only use the read
// door; asking it to run Bash is refused by awf's intent rule, the refusal text reaches the model
// and the activity file records it.
func TestRefusedCallIsRecorded(t *testing.T) {
	for _, c := range clis {
		t.Run(c.name, func(t *testing.T) {
			p := newProject(t, c, func(p *project) fakemodel.Script {
				return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{
					{Name: "call_tool_read", Args: map[string]any{"name": "Read", "args": map[string]any{"file_path": p.file}}},
					{Name: "call_tool_read", Args: map[string]any{"name": "Bash", "args": map[string]any{"command": "echo should-not-run"}}},
				}}
			}, "      enable: true\n      intent:\n        split: true\n        allow: [read]\n      sandbox: {mode: off}") // with the sandbox, Bash is a read tool here (sandbox_test.go)
			sum, _ := p.run(t)
			for _, r := range p.fake.Requests() {
				for _, tl := range r.OfferedTools {
					if strings.Contains(tl, "call_tool_destructive") || strings.Contains(tl, "call_tool_write") || strings.HasSuffix(tl, "Bash") {
						t.Errorf("allow [read] offered %s", tl)
					}
				}
			}
			results := strings.Join(p.fake.ToolResults(), "\n")
			if !strings.Contains(results, p.marker) || !strings.Contains(results, "Tool 'Bash' is not allowed in this step") || strings.Contains(results, "should-not-run\n") {
				t.Errorf("tool results: %q", p.fake.ToolResults())
			}
			recs := p.records(t, sum.RunID)
			if len(recs) != 2 || recs[0].Outcome != "success" || recs[1].Tool != "Bash" || recs[1].Outcome != "refused" || recs[1].Intent.Decision != "refuse" {
				t.Fatalf("activity %+v", recs)
			}
			waitNoLeftovers(t, p.home[:len(p.home)-len("/home")])
		})
	}
}
