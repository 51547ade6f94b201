package action_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/tests/testkit"
)

// agentWorkflow is one agent step against the scripted demo model: it reads, greps, and asks
// for a destructive Bash call that allow [read, write] refuses (the sandbox is off, so the
// refusal does not depend on the kernel).
const agentWorkflow = `name: explore
states:
  initial: explore
  explore:
    type: agent
    provider: openai_compatible
    prompt: look around, then clean up with Bash
    options:
      max_turns: 10
      request_timeout: 1m
    timeout: 2m
    mcp_proxy:
      enable: true
      intercept_builtins: true
      intent:
        allow: [read, write]
      sandbox:
        mode: "off"
    on_success: done
    on_failure: failed
  done:
    type: terminal
    status: success
  failed:
    type: terminal
    status: failure
`

func TestActionRunsAWorkflow(t *testing.T) {
	model := demoModel(t)
	r := newRunner(t, release(t, false))
	writeProject(t, r.workspace, map[string]string{"explore.yaml": agentWorkflow, "../../README.md": "# awf readme\n"})
	steps := r.run(map[string]string{"workflow": "explore", "sarif": "awf.sarif", "report": "true", "inputs": ""},
		"OPENAI_BASE_URL="+model, "OPENAI_MODEL=awf-demo")
	if len(steps) != 3 {
		t.Fatalf("ran %d steps, want install, run, summary: %+v", len(steps), steps)
	}
	for _, s := range steps {
		if s.code != 0 {
			t.Fatalf("step %q exited %d:\n%s", s.name, s.code, s.stdout)
		}
	}
	if !strings.Contains(steps[0].stdout, "platform: ") {
		t.Fatalf("install did not run the installed awf version:\n%s", steps[0].stdout)
	}
	out := r.outputs()
	if out["status"] != runrecord.Succeeded || out["run-id"] == "" || !strings.HasPrefix(out["report-path"], ".awf/runs/"+out["run-id"]+"/report.html") {
		t.Fatalf("outputs: %q", out)
	}
	var sum struct {
		RunID    string         `json:"run_id"`
		ByIntent map[string]int `json:"tool_calls_by_intent"`
		Findings []struct{ Kind, Tool, Code string }
	}
	if err := json.Unmarshal([]byte(out["summary-json"]), &sum); err != nil {
		t.Fatalf("summary-json: %v\n%s", err, out["summary-json"])
	}
	if sum.RunID != out["run-id"] || sum.ByIntent["read"] < 2 || len(sum.Findings) != 1 || sum.Findings[0].Tool != "Bash" || sum.Findings[0].Kind != "refusal" {
		t.Fatalf("summary-json: %+v", sum)
	}
	md, _ := os.ReadFile(r.summary)
	for _, want := range []string{"## awf: explore", "| explore | success |", "### Refusals: 1", "| destructive | 1 |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("job summary lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(steps[2].stdout, "::error file=.awf/workflows/explore.yaml,line=4,col=3,title=awf refused Bash::") {
		t.Errorf("no refusal annotation at the step's line:\n%s", steps[2].stdout)
	}
	checkSARIF(t, filepath.Join(r.workspace, "awf.sarif"))
}

func TestActionAnnotatesAnInvalidWorkflow(t *testing.T) {
	r := newRunner(t, release(t, false))
	writeProject(t, r.workspace, map[string]string{"broken.yaml": "name: broken\nstates:\n  initial: go\n  go:\n    type: command\n    command: echo hi\n    on_success: nowhere\n"})
	steps := r.run(map[string]string{"workflow": "broken", "inputs": "who=me\n\n# a comment\n"})
	if len(steps) != 3 || steps[1].code != 1 || steps[2].code != 0 {
		t.Fatalf("want install ok, run exit 1, summary ok: %+v", steps)
	}
	if !strings.Contains(steps[1].stdout, "::error file=.awf/workflows/broken.yaml,line=7,") {
		t.Fatalf("no ::error at the line of the bad transition:\n%s", steps[1].stdout)
	}
	if out := r.outputs(); out["run-id"] != "" || !strings.Contains(steps[2].stdout, "no run to summarize") {
		t.Fatalf("an invalid workflow left outputs %q / %s", out, steps[2].stdout)
	}
}

func TestActionRefusesACorruptArchive(t *testing.T) {
	r := newRunner(t, release(t, true))
	writeProject(t, r.workspace, map[string]string{"w.yaml": "name: w\nstates:\n  initial: done\n  done:\n    type: terminal\n"})
	steps := r.run(map[string]string{"workflow": "w"})
	if steps[0].code == 0 || !strings.Contains(steps[0].stdout, "does not match the release's SHA256SUMS") {
		t.Fatalf("a corrupt archive was installed: %+v", steps)
	}
	if b, _ := os.ReadFile(r.path); len(b) != 0 {
		t.Fatalf("GITHUB_PATH got %q", b)
	}
}

func TestActionRejectsAnInputLineWithoutEquals(t *testing.T) {
	r := newRunner(t, release(t, false))
	writeProject(t, r.workspace, map[string]string{"w.yaml": "name: w\nstates:\n  initial: done\n  done:\n    type: terminal\n"})
	steps := r.run(map[string]string{"workflow": "w", "inputs": "ok=1\nsecret-value-no-equals"})
	if steps[1].code == 0 || !strings.Contains(steps[1].stdout, "line 2 of the inputs is not name=value") || strings.Contains(steps[1].stdout, "secret-value") {
		t.Fatalf("run step: %+v", steps[1])
	}
}

func writeProject(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, ".awf", "workflows", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// demoModel starts examples/demo-model on a free port and returns its base URL.
func demoModel(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "demo-model")
	if err := testkit.GoBuild(bin, "./examples/demo-model"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--addr", "127.0.0.1:0")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				urls <- u
			}
		}
	}()
	select {
	case u := <-urls:
		return u
	case <-time.After(20 * time.Second):
		t.Fatal("the demo model did not start")
		return ""
	}
}

// sarifSchema is the official SARIF 2.1.0 schema (OASIS errata01, testdata), resolved once. It
// declares draft-04; its keywords mean the same in draft-07, which jsonschema-go validates, so
// only the declaration and the draft-04 "id" are changed, in memory.
var sarifSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	b, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if m["$schema"] != "http://json-schema.org/draft-04/schema#" {
		return nil, fmt.Errorf("unexpected schema header %v", m["$schema"])
	}
	m["$schema"] = "http://json-schema.org/draft-07/schema#"
	delete(m, "id")
	b, _ = json.Marshal(m)
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return s.Resolve(nil)
})

func checkSARIF(t *testing.T, file string) {
	t.Helper()
	rs, err := sarifSchema()
	if err != nil {
		t.Fatalf("SARIF schema: %v", err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no SARIF written: %v", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("SARIF is not JSON: %v\n%s", err, b)
	}
	if err := rs.Validate(v); err != nil {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema: %v\n%s", err, b)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID, Level string
				Locations     []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	_ = json.Unmarshal(b, &log)
	res := log.Runs[0].Results
	if len(res) != 1 || res[0].RuleID != "USER.INTENT.NOT_ALLOWED" || res[0].Level != "error" ||
		res[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != ".awf/workflows/explore.yaml" || res[0].Locations[0].PhysicalLocation.Region.StartLine != 4 {
		t.Fatalf("SARIF results: %+v", res)
	}
}

func TestSARIFSchemaRejects(t *testing.T) {
	rs, err := sarifSchema()
	if err != nil {
		t.Fatal(err)
	}
	var bad any
	_ = json.Unmarshal([]byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"awf"}},"results":[{"message":{"text":"m"},"level":"fatal"}]}]}`), &bad)
	if rs.Validate(bad) == nil {
		t.Fatal("the schema accepts a result with level fatal: it checks nothing")
	}
}
