package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretNamedInputsAreMasked: an input named like a secret (api_key) is masked wherever
// awf shows or keeps text, as the reference awf masks it, while the command still gets it.
func TestSecretNamedInputsAreMasked(t *testing.T) {
	const key = "k-0123456789abcdef"
	dir := project(t, map[string]string{"w.yaml": `name: w
inputs:
  - {name: api_key, type: string, required: true}
  - {name: topic, type: string, default: plain-visible-value}
states:
  initial: a
  a:
    type: step
    command: echo "using {{.inputs.api_key}} for {{.inputs.topic}}" > used.txt; echo "auth failed with {{.inputs.api_key}} on {{.inputs.topic}}" >&2; exit 1
    on_success: done
  done: {type: terminal}
`})
	home, tmp := t.TempDir(), t.TempDir()
	r := awf(t, dir, []string{"HOME=" + home, "TMPDIR=" + tmp}, "run", "w", "-i", "api_key="+key)
	if r.code != 2 || !strings.Contains(r.stderr+r.stdout, "auth failed with [REDACTED]") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	used, err := os.ReadFile(filepath.Join(dir, "used.txt"))
	if err != nil || !strings.Contains(string(used), key) {
		t.Fatalf("the command must get the real value: %q %v", used, err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, ".awf", "runs", "*", "run.log"))
	if len(logs) != 1 {
		t.Fatalf("run logs %v", logs)
	}
	b, _ := os.ReadFile(logs[0])
	for what, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "run.log": string(b)} {
		if strings.Contains(text, "0123456789") {
			t.Errorf("%s shows the secret input", what)
		}
	}
	if !strings.Contains(r.stdout+r.stderr, "plain-visible-value") {
		t.Errorf("an ordinary input must stay visible")
	}
}
