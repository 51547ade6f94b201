package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// echoWorkflow writes one value, from an input and from the environment, into out-*.txt from
// several shell places; a value that ran as code would leave PWNED behind.
const echoWorkflow = `name: echoes
inputs:
  - name: x
    type: string
states:
  initial: write
  write:
    type: command
    command: |
      printf '%s' {{.inputs.x}} > out-word.txt
      printf '%s' "{{.inputs.x}}" > out-double.txt
      printf '%s' '{{.inputs.x}}' > out-single.txt
      printf '%s' "$(printf '%s' {{.env.AWF_PROBE}})" > out-env.txt
      cat > out-doc.txt <<END
      {{.inputs.x}}
      END
    on_success: done
    on_failure: failed
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`

// TestHostileValuesStayData runs the real binary with values crafted to break out of each
// place, from an input and from the environment, and reads back exactly what they were.
func TestHostileValuesStayData(t *testing.T) {
	for _, v := range []string{
		`"; touch PWNED #`, `$(touch PWNED)`, "`touch PWNED`", `'; touch PWNED; '`, "x\ntouch PWNED",
		`${IFS}touch${IFS}PWNED`, `a\`, "plain",
	} {
		t.Run(v, func(t *testing.T) {
			dir := project(t, map[string]string{"echoes.yaml": echoWorkflow})
			env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "AWF_PROBE=" + v}
			r := awf(t, dir, env, "run", "echoes", "-i", "x="+v)
			if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
				t.Fatalf("a value ran as code:\n%s%s", r.stdout, r.stderr)
			}
			if r.code != 0 {
				t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
			}
			for file, want := range map[string]string{
				"out-word.txt": v, "out-double.txt": v, "out-single.txt": v, "out-env.txt": v, "out-doc.txt": v + "\n",
			} {
				b, err := os.ReadFile(filepath.Join(dir, file))
				if err != nil || string(b) != want {
					t.Errorf("%s = %q (%v), want %q", file, b, err, want)
				}
			}
		})
	}
}

// TestValidateFlagsShellPlaces: awf validate reports what awf run would refuse, with its place.
func TestValidateFlagsShellPlaces(t *testing.T) {
	dir := project(t, map[string]string{"bad.yaml": `name: bad
inputs:
  - name: x
    type: string
states:
  initial: a
  a:
    type: command
    command: echo \{{.inputs.x}} {{raw .inputs.x}}
    on_success: done
  done:
    type: terminal
`})
	r := awf(t, dir, nil, "validate", "bad")
	if r.code != 1 || !contains(r.stdout+r.stderr, "USER.TEMPLATE.SHELL_PLACE", "bad.yaml:9:14", "USER.TEMPLATE.RAW", "column 7") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func contains(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
