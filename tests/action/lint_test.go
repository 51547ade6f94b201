package action_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

// TestActionlint lints the example workflows with actionlint (pinned in tools/go.mod), then
// lints them again in a scratch repository where they use the action as `uses: ./`, so that
// actionlint also reads action.yml and checks every `with:` key against its inputs. A planted
// unknown input must fail, or the second pass checks nothing.
func TestActionlint(t *testing.T) {
	if raceBuild {
		testkit.Skip(t, "under -race: actionlint is another process, which make test already runs")
	}
	root := testkit.RepoRoot()
	bin := filepath.Join(t.TempDir(), "actionlint")
	build := exec.Command("go", "build", "-o", bin, "github.com/rhysd/actionlint/cmd/actionlint")
	build.Dir = filepath.Join(root, "tools")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building actionlint from tools/go.mod: %v\n%s", err, out)
	}
	examples, _ := filepath.Glob(filepath.Join(root, "examples", "github", "*.yml"))
	if len(examples) < 2 {
		t.Fatalf("want the pull-request and fan-out examples, found %v", examples)
	}
	lint := func(dir string, files ...string) (string, error) {
		cmd := exec.Command(bin, append([]string{"-no-color"}, files...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := lint(root, examples...); err != nil {
		t.Fatalf("actionlint on examples/github:\n%s", out)
	}

	scratch := t.TempDir()
	for _, d := range []string{".git", ".github/workflows", "action"} {
		if err := os.MkdirAll(filepath.Join(scratch, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(t, filepath.Join(root, "action.yml"), filepath.Join(scratch, "action.yml"))
	var local []string
	for _, ex := range examples {
		b, _ := os.ReadFile(ex)
		text := strings.ReplaceAll(string(b), "uses: awf-dev/awf@v1", "uses: ./")
		if text == string(b) {
			t.Fatalf("%s does not use awf-dev/awf@v1", ex)
		}
		dst := filepath.Join(scratch, ".github", "workflows", filepath.Base(ex))
		if err := os.WriteFile(dst, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		local = append(local, dst)
	}
	if out, err := lint(scratch, local...); err != nil {
		t.Fatalf("actionlint with the action as ./ (its inputs checked against action.yml):\n%s", out)
	}
	b, _ := os.ReadFile(local[0])
	planted := strings.Replace(string(b), "          workflow: ", "          no-such-input: x\n          workflow: ", 1)
	_ = os.WriteFile(local[0], []byte(planted), 0o644)
	if out, err := lint(scratch, local[0]); err == nil || !strings.Contains(out, `input "no-such-input" is not defined`) {
		t.Fatalf("actionlint did not catch an unknown input (%v):\n%s", err, out)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
