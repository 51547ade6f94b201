package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const reportFlow = `name: rep
inputs:
  - name: api_token
    type: string
  - name: who
    type: string
states:
  initial: greet
  greet:
    type: step
    command: printf 'hello %s\n<script>alert(1)</script>\n' {{quote .inputs.who}}
    on_success: done
    on_failure: failed
  done: {type: terminal, status: success}
  failed: {type: terminal, status: failure}
`

// awf run --report writes the report into the run's directory and prints its path; awf report
// writes it again where -o says. The secret input never reaches the page, nor does a raw tag.
func TestRunReportAndReportCommand(t *testing.T) {
	dir := project(t, map[string]string{"rep.yaml": reportFlow})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "run", "rep", "-i", "api_token=tok-very-secret-1", "-i", "who=<b>bob</b>", "--report")
	if r.code != 0 {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	m := regexp.MustCompile(`(?m)^Report: (.*report\.html)$`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no report path printed:\n%s", r.stdout)
	}
	id := filepath.Base(filepath.Dir(m[1]))
	out := filepath.Join(t.TempDir(), "again.html")
	r2 := awf(t, dir, env, "report", id, "-o", out)
	if r2.code != 0 || strings.TrimSpace(r2.stdout) != out {
		t.Fatalf("awf report: exit %d, stdout %q, stderr %s", r2.code, r2.stdout, r2.stderr)
	}
	for _, f := range []string{m[1], out} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		for _, bad := range []string{"tok-very-secret-1", "<script>alert", "<b>bob</b>"} {
			if strings.Contains(page, bad) {
				t.Errorf("%s holds %q", f, bad)
			}
		}
		for _, want := range []string{"success", "greet", "&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;b&gt;bob&lt;/b&gt;"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %q", f, want)
			}
		}
	}
}

func TestReportUnknownRun(t *testing.T) {
	dir := project(t, map[string]string{"rep.yaml": reportFlow})
	r := awf(t, dir, []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}, "report", "20990101-000000-nosuch")
	if r.code == 0 || !strings.Contains(r.stderr, "20990101-000000-nosuch") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}
