package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The values a run masks, one per source: a secret-named variable, secret-named inputs of each
// type (string, integer, an array's string item, an object value inside an array), a value a
// plugin gets in plugins.yaml's env: under an innocent name, a password in a URL (also as a
// cleaned path shows it) and a token shape a command prints.
const (
	maskEnvName  = "MASKTEST_SERVICE_TOKEN"
	maskEnvValue = "envtok-Zq81-secret-value"
	maskString   = "strinput-Kx22-secret"
	maskInteger  = "987654321012"
	maskItem     = "arritem-Ty33-secret"
	maskObject   = "objval-Wv44-secret"
	maskPlugin   = "plugenv-Pq55-secret"
	maskURLPass  = "urlpw-Rs66-secret"
	maskShape    = "ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78"
)

var maskValues = []string{maskEnvValue, maskString, maskInteger, maskItem, maskObject, maskPlugin, maskURLPass, maskShape}

const keepMaskWorkflow = `name: keep
inputs:
  - {name: api_key, type: string, required: true}
  - {name: pin_password, type: integer, required: true}
  - {name: deploy_token, type: array, required: true}
states:
  initial: show
  show:
    type: command
    command: |
      echo "env {{.env.` + maskEnvName + `}} str {{.inputs.api_key}} int {{.inputs.pin_password}} arr {{.inputs.deploy_token}}"
      echo "token ` + maskShape + `"
      echo "clone https://deploy:` + maskURLPass + `@example.com/r.git failed: open /w/https:/deploy:` + maskURLPass + `@example.com: no such file" >&2
    on_success: plug
  plug:
    type: operation
    operation: echo.echo
    inputs:
      text: "conn ` + maskPlugin + `"
    on_success: last
  last:
    type: command
    command: |
      test -f go.txt || { echo "stopped after {{.states.show.Output}} {{.states.plug.Output}}" >&2; exit 3; }
      echo "resumed after {{.states.show.Output}} {{.states.plug.Output}}"
    on_success: done
    on_failure: failed
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`

// TestRunKeepsItsMask: whatever a run masked stays masked in everything shown later — status
// and history (text and JSON), the HTML report, --dry-run, --format json and the output of a
// resume — once the secret variable is unset (the run's record keeps its mask set).
func TestRunKeepsItsMask(t *testing.T) {
	if _, set := os.LookupEnv(maskEnvName); set {
		t.Skip(maskEnvName + " is set in the test's environment; the test needs to unset it")
	}
	dir := keepProject(t)
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	inputs := []string{"-i", "api_key=" + maskString, "-i", "pin_password=" + maskInteger,
		"-i", `deploy_token=["` + maskItem + `", {"inner": "` + maskObject + `"}]`}
	withSecret := append([]string{maskEnvName + "=" + maskEnvValue}, env...)

	first := awf(t, dir, withSecret, append([]string{"run", "keep", "--format", "json"}, inputs...)...)
	if first.code != 2 || !strings.Contains(first.stdout, "[REDACTED") {
		t.Fatalf("run: exit %d, want 2\n%s%s", first.code, first.stdout, first.stderr)
	}
	noneShown(t, "run --format json", first.stdout+first.stderr)
	runs, _ := filepath.Glob(filepath.Join(dir, ".awf", "runs", "*", "state.json"))
	if len(runs) != 1 {
		t.Fatalf("runs: %v", runs)
	}
	id := filepath.Base(filepath.Dir(runs[0]))
	state, _ := os.ReadFile(runs[0])
	if !strings.Contains(string(state), maskString) {
		t.Fatal("state.json must keep the inputs in clear, for a resume")
	}
	if strings.Contains(string(state), "envtok-Zq81-secret-value-") {
		t.Fatal("state.json holds more of the variable than the run's output did")
	}

	// From here on the variable is unset.
	report := filepath.Join(t.TempDir(), "r.html")
	for _, args := range [][]string{
		{"status", id}, {"status", id, "--format", "json"}, {"history"}, {"history", "--format", "json"},
		{"report", id, "-o", report},
	} {
		r := awf(t, dir, env, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		noneShown(t, strings.Join(args, " "), r.stdout+r.stderr)
	}
	page, err := os.ReadFile(report)
	if err != nil || !strings.Contains(string(page), "REDACTED") {
		t.Fatalf("report: %v", err)
	}
	noneShown(t, "report HTML", string(page))
	status := awf(t, dir, env, "status", id, "--format", "json")
	if !strings.Contains(status.stdout, "[REDACTED]") {
		t.Errorf("status --format json shows no mask:\n%s", status.stdout)
	}

	dry := awf(t, dir, env, append([]string{"run", "keep", "--dry-run"}, inputs...)...)
	if dry.code != 0 || !strings.Contains(dry.stdout, "[REDACTED]") {
		t.Fatalf("dry run: exit %d\n%s%s", dry.code, dry.stdout, dry.stderr)
	}
	noneShown(t, "run --dry-run", dry.stdout+dry.stderr)

	touch(t, filepath.Join(dir, "go.txt"))
	res := awf(t, dir, env, "resume", id)
	if res.code != 0 || !strings.Contains(res.stdout, "resumed after") {
		t.Fatalf("resume: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	noneShown(t, "resume", res.stdout+res.stderr)
	for _, args := range [][]string{{"status", id, "--format", "json"}, {"report", id, "-o", report}} {
		r := awf(t, dir, env, args...)
		noneShown(t, "after the resume: "+strings.Join(args, " "), r.stdout+r.stderr)
	}
	page, _ = os.ReadFile(report)
	noneShown(t, "report HTML after the resume", string(page))
}

// TestSecretInputErrorIsMasked: a value given for a secret-named input that does not fit its
// type is quoted by the error, masked like the value itself.
func TestSecretInputErrorIsMasked(t *testing.T) {
	dir := keepProject(t)
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "run", "keep", "-i", "api_key=x", "-i", "deploy_token=a", "-i", "pin_password=not-a-number-"+maskString)
	if r.code != 1 || !strings.Contains(r.stderr, "USER.INPUT.INVALID_VALUE") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, maskString) {
		t.Errorf("the error shows the secret input's value:\n%s", r.stderr)
	}
}

// keepProject is a project with keepMaskWorkflow and the echo plugin, given maskPlugin in its
// env:.
func keepProject(t *testing.T) string {
	t.Helper()
	dir := project(t, map[string]string{"keep.yaml": keepMaskWorkflow})
	plugins := fmt.Sprintf("plugins:\n  echo:\n    command: %s/echo\n    env: {SERVICE_CONN: %q}\n", pluginDir, maskPlugin)
	if err := os.WriteFile(filepath.Join(dir, ".awf", "plugins.yaml"), []byte(plugins), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// noneShown fails when text holds any of the masked values, or 8 bytes of one.
func noneShown(t *testing.T, what, text string) {
	t.Helper()
	for _, v := range maskValues {
		for i := 0; i+8 <= len(v); i++ {
			if strings.Contains(text, v[i:i+8]) {
				t.Errorf("%s shows %q (from %q):\n%s", what, v[i:i+8], v, text)
				break
			}
		}
	}
}
