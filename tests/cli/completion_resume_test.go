package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// twoSteps echoes an input, then fails until a marker file exists.
const twoSteps = `name: two
inputs:
  - name: who
    type: string
    required: true
  - name: times
    type: integer
    default: 1
states:
  initial: greet
  greet:
    type: command
    command: echo "hi {{.inputs.who}} {{.inputs.times}}"
    on_success: check
  check:
    type: command
    command: test -f ready
    on_success: done
    on_failure: failed
  done: {type: terminal}
  failed: {type: terminal, status: failure}
`

// failedRun runs twoSteps once (it fails at check) and returns its project, env and run id.
func failedRun(t *testing.T) (string, []string, string) {
	t.Helper()
	dir := project(t, map[string]string{"two.yaml": twoSteps})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "run", "two", "-i", "who=ada", "--format", "json")
	var doc struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 2 || doc.RunID == "" {
		t.Fatalf("first run: %d %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	return dir, env, doc.RunID
}

// completions are the words `awf __complete args…` offers (without their descriptions).
func completions(t *testing.T, dir string, env []string, args ...string) []string {
	t.Helper()
	r := awf(t, dir, env, append([]string{"__complete"}, args...)...)
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if l != "" && !strings.HasPrefix(l, ":") {
			w, _, _ := strings.Cut(l, "\t")
			out = append(out, w)
		}
	}
	return out
}

// TestDynamicCompletion: workflow names, run ids, input names and resume points complete from
// the project; a workflow file whose name holds a newline is not offered (it would split the
// shell's completion lines).
func TestDynamicCompletion(t *testing.T) {
	dir, env, id := failedRun(t)
	if err := os.WriteFile(filepath.Join(dir, ".awf", "workflows", "evil\nname.yaml"), []byte(twoSteps), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"run", ""}, []string{"two"}},
		{[]string{"validate", ""}, []string{"two"}},
		{[]string{"run", "two", "--input", ""}, []string{"who=", "times="}},
		{[]string{"status", ""}, []string{id}},
		{[]string{"resume", ""}, []string{id}},
		{[]string{"resume", id, "--input", ""}, []string{"who=", "times="}},
		{[]string{"resume", id, "--from", ""}, []string{"current", "previous", "check", "done", "failed", "greet"}},
	}
	for _, tc := range tests {
		got := completions(t, dir, env, tc.args...)
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("__complete %q: %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestResumeFromPreviousWithInputOverride: a run that failed at its second step resumes at the
// step before (--from previous), with an input replaced (--input) and the other recorded; an
// override the workflow does not declare, or of the wrong type, is refused before anything runs.
func TestResumeFromPreviousWithInputOverride(t *testing.T) {
	dir, env, id := failedRun(t)
	if r := awf(t, dir, env, "resume", id, "--input", "nosuch=1"); r.code != 1 || !strings.Contains(r.stderr, "nosuch") {
		t.Fatalf("unknown input: %d %s", r.code, r.stderr)
	}
	if r := awf(t, dir, env, "resume", id, "--input", "times=many"); r.code != 1 || !strings.Contains(r.stdout+r.stderr, "times") {
		t.Fatalf("ill-typed input: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := awf(t, dir, env, "resume", id, "--from", "previous", "--input", "times=3", "--format", "json")
	if r.code != 0 {
		t.Fatalf("resume: %d %s %s", r.code, r.stdout, r.stderr)
	}
	var st struct {
		Status string `json:"status"`
		Steps  []struct {
			Name, Output string
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(awf(t, dir, env, "status", id, "--format", "json").stdout), &st); err != nil {
		t.Fatal(err)
	}
	var greets []string
	for _, s := range st.Steps {
		if s.Name == "greet" {
			greets = append(greets, s.Output)
		}
	}
	if st.Status != "success" || strings.Join(greets, "|") != "hi ada 1|hi ada 3" {
		t.Fatalf("status %s, greet outputs %q: want success and greet run again with who kept and times replaced", st.Status, greets)
	}
}
