package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResumeJSONKeepsItsMask: `awf resume --format json`, with the secret variable unset,
// masks what the run masked (the run's record keeps its mask set): the document it prints,
// for a resume that stops again and for one from the state before that ends, quotes the
// earlier steps' outputs masked and holds no 8-byte run of any masked value.
func TestResumeJSONKeepsItsMask(t *testing.T) {
	if _, set := os.LookupEnv(maskEnvName); set {
		t.Skip(maskEnvName + " is set in the test's environment; the test needs to unset it")
	}
	dir := keepProject(t)
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	inputs := []string{"-i", "api_key=" + maskString, "-i", "pin_password=" + maskInteger,
		"-i", `deploy_token=["` + maskItem + `", {"inner": "` + maskObject + `"}]`}
	first := awf(t, dir, append([]string{maskEnvName + "=" + maskEnvValue}, env...), append([]string{"run", "keep", "--format", "json"}, inputs...)...)
	if first.code != 2 {
		t.Fatalf("run: exit %d, want 2\n%s%s", first.code, first.stdout, first.stderr)
	}
	runs, _ := filepath.Glob(filepath.Join(dir, ".awf", "runs", "*", "state.json"))
	if len(runs) != 1 {
		t.Fatalf("runs: %v", runs)
	}
	id := filepath.Base(filepath.Dir(runs[0]))

	// From here on the variable is unset. The first resume stops again (its error quotes the
	// earlier outputs); the second, from the state before, runs the plugin step again and ends.
	for _, c := range []struct {
		args  []string
		code  int
		quote string
	}{
		{[]string{"resume", id, "--format", "json"}, 2, "stopped after"},
		{[]string{"resume", id, "--from", "previous", "--format", "json"}, 0, "resumed after"},
	} {
		if c.code == 0 {
			touch(t, filepath.Join(dir, "go.txt"))
		}
		r := awf(t, dir, env, c.args...)
		what := strings.Join(c.args, " ")
		if r.code != c.code {
			t.Fatalf("%s: exit %d, want %d\n%s%s", what, r.code, c.code, r.stdout, r.stderr)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s: stdout is not one JSON document: %v\n%s", what, err, r.stdout)
		}
		// The values did pass through what is printed: the last step quotes the earlier outputs.
		if !strings.Contains(r.stdout, c.quote) || !strings.Contains(r.stdout, "[REDACTED") {
			t.Fatalf("%s: the document holds no masked output, so the test proves nothing:\n%s", what, r.stdout)
		}
		noneShown(t, what, r.stdout+r.stderr)
	}
}
