package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

const scanWorkflow = `name: %s
states:
  initial: ask
  ask:
    type: agent
    provider: openai_compatible
    prompt: hi
    mcp_proxy:
      enable: true
      plugin_tools:
        - plugin: bad
          expose: [%s]
        - plugin: clean
          expose: [add_note]
    on_success: done
    on_failure: done
  done:
    type: terminal
`

// scanFixture builds tests/scanfixture (an MCP server listing one tool that breaks the rule
// named by its argument) into dir.
func scanFixture(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "scanfixture")
	cmd := exec.Command("go", "build", "-o", bin, "./tests/scanfixture")
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./tests/scanfixture: %v\n%s", err, out)
	}
	return bin
}

// scanProject declares the fixture twice: clean, and bad breaking rule; workflow glob exposes
// every tool of bad, workflow named exposes tool by name.
func scanProject(t *testing.T, bin, rule, tool string) string {
	t.Helper()
	dir := project(t, map[string]string{
		"glob.yaml":  fmt.Sprintf(scanWorkflow, "glob", `"*"`),
		"named.yaml": fmt.Sprintf(scanWorkflow, "named", tool),
	})
	setScanRule(t, dir, bin, rule)
	return dir
}

func setScanRule(t *testing.T, dir, bin, rule string) {
	t.Helper()
	body := fmt.Sprintf("plugins:\n  clean:\n    type: mcp\n    command: %s\n  bad:\n    type: mcp\n    command: %s\n    args: [%s]\n", bin, bin, rule)
	if err := os.WriteFile(filepath.Join(dir, ".awf", "plugins.yaml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sarifSchema is the official SARIF 2.1.0 schema (OASIS errata01, testdata), resolved once.
var sarifSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	b, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		return nil, err
	}
	// The schema declares draft-04; the keywords it uses mean the same in draft-07 (no boolean
	// exclusiveMinimum, only local $refs), which is what jsonschema-go validates. Only the
	// declaration and the draft-04 "id" are changed, in memory.
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

// checkSARIF validates out against the SARIF 2.1.0 schema and returns ruleId → tools
// (fullyQualifiedName of the logical location).
func checkSARIF(t *testing.T, out string) map[string][]string {
	t.Helper()
	rs, err := sarifSchema()
	if err != nil {
		t.Fatalf("SARIF schema: %v", err)
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("SARIF is not JSON: %v\n%s", err, out)
	}
	if err := rs.Validate(v); err != nil {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema: %v\n%s", err, out)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					LogicalLocations []struct{ FullyQualifiedName string }
				}
			}
		}
	}
	_ = json.Unmarshal([]byte(out), &log)
	got := map[string][]string{}
	for _, r := range log.Runs[0].Results {
		got[r.RuleID] = append(got[r.RuleID], r.Locations[0].LogicalLocations[0].FullyQualifiedName)
	}
	return got
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

// TestScanRules: for each rule, a fixture server whose one tool breaks it. lock, validate and
// scan --format sarif report it; a high finding keeps the tool out of the step (awf call
// cannot reach it, validate fails when the step names it) until `awf plugins lock --accept`.
func TestScanRules(t *testing.T) {
	bin := scanFixture(t, t.TempDir())
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	for _, c := range []struct {
		rule, tool string
		high       bool
	}{
		{"hidden-characters", "lookup", true},
		{"model-instructions", "lookup", true},
		{"credential-path", "lookup", true},
		{"shadows-builtin", "Bash", true},
		{"annotation-mismatch", "delete_repo", true},
		{"builtin-reference", "lookup", false},
		{"tool-reference", "lookup", false},
		{"shadows-server-tool", "clean_add_note", false},
		{"secret", "lookup", false},
	} {
		t.Run(c.rule, func(t *testing.T) {
			dir := scanProject(t, bin, c.rule, c.tool)
			run := func(wantCode int, args ...string) string {
				t.Helper()
				r := awf(t, dir, env, args...)
				if r.code != wantCode {
					t.Fatalf("awf %s: exit %d, want %d\n%s%s", strings.Join(args, " "), r.code, wantCode, r.stdout, r.stderr)
				}
				return r.stdout + r.stderr
			}
			finding := "[" + c.rule + "] bad/" + c.tool
			out := run(0, "plugins", "lock")
			if !strings.Contains(out, finding) || strings.Contains(out, "held out") != c.high {
				t.Fatalf("lock: want %q (held: %v):\n%s", finding, c.high, out)
			}
			out = run(0, "validate", "glob")
			code := map[bool]string{true: "USER.MCP_PROXY.TOOL_HELD", false: "USER.MCP_PROXY.TOOL_FINDING"}[c.high]
			if !strings.Contains(out, c.rule+"] plugin bad, tool "+c.tool) || !strings.Contains(out, code) {
				t.Fatalf("validate: want %s %s:\n%s", c.rule, code, out)
			}
			sarifCode := map[bool]int{true: 1, false: 0}[c.high]
			r := awf(t, dir, env, "plugins", "scan", "--format", "sarif")
			if r.code != sarifCode {
				t.Fatalf("scan --format sarif: exit %d, want %d\n%s", r.code, sarifCode, r.stderr)
			}
			if got := checkSARIF(t, r.stdout); strings.Join(got[c.rule], ",") != "bad/"+c.tool {
				t.Fatalf("SARIF results for %s: %v", c.rule, got)
			}
			call := []string{"call", "tool-read", "bad_" + c.tool, "--args", `{"text":"x"}`, "--workflow", "glob", "--step", "ask"}
			if !c.high {
				run(0, call...)
				return
			}
			if out := run(1, call...); !strings.Contains(out, "not found") {
				t.Fatalf("held tool reached: %s", out)
			}
			if out := run(1, "validate", "named"); !strings.Contains(out, "held out of the step") {
				t.Fatalf("validate of a step naming a held tool: %s", out)
			}
			run(0, "plugins", "lock", "--accept", "bad/"+c.tool)
			if out := run(0, call...); !strings.Contains(out, c.tool+": x") {
				t.Fatalf("accepted tool: %s", out)
			}
			run(0, "validate", "named")
			run(0, "plugins", "scan")
		})
	}
}

// TestScanAcceptanceFollowsTheDefinition: an accepted tool whose definition changes is drift
// and held again, until accepted again.
func TestScanAcceptanceFollowsTheDefinition(t *testing.T) {
	bin := scanFixture(t, t.TempDir())
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	dir := scanProject(t, bin, "model-instructions", "lookup")
	if r := awf(t, dir, env, "plugins", "lock", "--accept", "bad/lookup"); r.code != 0 {
		t.Fatalf("%s%s", r.stdout, r.stderr)
	}
	setScanRule(t, dir, bin, "credential-path") // same tool, another description
	r := awf(t, dir, env, "plugins", "lock", "--check")
	if r.code != 1 || !strings.Contains(r.stderr, "tool lookup: description changed") {
		t.Fatalf("drift: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = awf(t, dir, env, "plugins", "lock")
	if r.code != 0 || !strings.Contains(r.stdout, "held out of every step until accepted (USER.MCP_PROXY.TOOL_HELD): bad/lookup") {
		t.Fatalf("a changed definition keeps its acceptance: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = awf(t, dir, env, "plugins", "scan", "--format", "json"); r.code != 1 || !strings.Contains(r.stdout, `"held": true`) {
		t.Fatalf("scan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestScanCleanServer: the fixture's clean tools (a near miss: "do not delete what the user did
// not name") raise nothing.
func TestScanCleanServer(t *testing.T) {
	bin := scanFixture(t, t.TempDir())
	dir := scanProject(t, bin, "clean", "add_note")
	r := awf(t, dir, []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}, "plugins", "scan")
	if r.code != 0 || !strings.Contains(r.stdout, "scan: no findings") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = awf(t, dir, []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}, "plugins", "scan", "--format", "sarif")
	if got := checkSARIF(t, r.stdout); r.code != 0 || len(got) != 0 {
		t.Fatalf("exit %d, results %v", r.code, got)
	}
}
