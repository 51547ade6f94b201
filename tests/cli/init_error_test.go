package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestInitMakesARunnableProject: `awf init` in an empty directory writes a workflow that
// validates and runs offline and a .gitignore for runs; a second init keeps edited files.
func TestInitMakesARunnableProject(t *testing.T) {
	dir := t.TempDir()
	if r := awf(t, dir, nil, "init"); r.code != 0 || !strings.Contains(r.stdout, "created .awf/workflows/hello.yaml") {
		t.Fatalf("init: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, ".awf", ".gitignore")); !strings.Contains(string(got), "runs/") {
		t.Fatalf(".gitignore does not keep runs out of git: %q", got)
	}
	if r := awf(t, dir, nil, "validate", "hello"); r.code != 0 {
		t.Fatalf("validate: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := awf(t, dir, nil, "run", "hello", "-i", "name=Ada"); r.code != 0 || !strings.Contains(r.stdout, "Hello, Ada!") {
		t.Fatalf("run: %d %s %s", r.code, r.stdout, r.stderr)
	}
	wf := filepath.Join(dir, ".awf", "workflows", "hello.yaml")
	if err := os.WriteFile(wf, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := awf(t, dir, nil, "init"); r.code != 0 || !strings.Contains(r.stdout, "kept    .awf/workflows/hello.yaml") {
		t.Fatalf("second init: %d %q", r.code, r.stdout)
	}
	if got, _ := os.ReadFile(wf); string(got) != "# mine\n" {
		t.Fatalf("init overwrote an edited workflow: %q", got)
	}
}

// TestInitNeverWritesThroughALink: a .gitignore planted as a symlink to a file outside the
// project is kept, and the file it points to is untouched.
func TestInitNeverWritesThroughALink(t *testing.T) {
	dir, outside := t.TempDir(), filepath.Join(t.TempDir(), "marker")
	if err := os.WriteFile(outside, []byte("untouched"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".awf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, ".awf", ".gitignore")); err != nil {
		t.Fatal(err)
	}
	if r := awf(t, dir, nil, "init"); r.code != 0 {
		t.Fatalf("init: %d %s", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(outside); string(got) != "untouched" {
		t.Fatalf("init wrote through a symlink: %q", got)
	}
}

// TestInitUnwritableRoot: --root naming a file is a coded user error that says what to do.
func TestInitUnwritableRoot(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := awf(t, t.TempDir(), nil, "--root", file, "init")
	if r.code != 1 || !strings.Contains(r.stderr, "USER.INIT.CANNOT_WRITE") || !strings.Contains(r.stderr, "hint") {
		t.Fatalf("want USER.INIT.CANNOT_WRITE with a hint, exit 1: %d %q", r.code, r.stderr)
	}
}

// TestErrorExplainsEveryCode: `awf error` lists every code defined in the fault package, each
// with the exit code its category gives; a prefix narrows; an unknown code is refused with the
// nearest one.
func TestErrorExplainsEveryCode(t *testing.T) {
	dir := t.TempDir()
	defined := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(repoRoot(t), "internal", "domain", "fault", "codes_*.go"))
	for _, f := range files {
		src, _ := os.ReadFile(f)
		for _, m := range regexp.MustCompile(`= "([A-Z]+\.[A-Z_]+\.[A-Z_0-9]+)"`).FindAllStringSubmatch(string(src), -1) {
			defined[m[1]] = true
		}
	}
	r := awf(t, dir, nil, "error", "--format", "json")
	var all []struct {
		Code     string `json:"code"`
		ExitCode int    `json:"exit_code"`
		Meaning  string `json:"meaning"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &all); err != nil || r.code != 0 {
		t.Fatalf("awf error --format json: %v %d %s", err, r.code, r.stderr)
	}
	exit := map[string]int{"USER": 1, "WORKFLOW": 2, "EXECUTION": 3, "SYSTEM": 4, "INTERRUPT": 130}
	listed := map[string]bool{}
	for _, e := range all {
		listed[e.Code] = true
		if want := exit[strings.Split(e.Code, ".")[0]]; e.ExitCode != want || e.Meaning == "" {
			t.Errorf("%s: exit %d (want %d), meaning %q", e.Code, e.ExitCode, want, e.Meaning)
		}
	}
	for c := range defined {
		if !listed[c] {
			t.Errorf("awf error does not know %s", c)
		}
	}
	if len(defined) == 0 || len(listed) != len(defined) {
		t.Errorf("awf error lists %d codes, the fault package defines %d", len(listed), len(defined))
	}
	if r := awf(t, dir, nil, "error", "execution"); r.code != 0 || !strings.Contains(r.stdout, "(exit 3)") || strings.Contains(r.stdout, "USER.") {
		t.Errorf("prefix: %d %q", r.code, r.stdout)
	}
	r = awf(t, dir, nil, "error", "USER.INPT.MISSING")
	if r.code != 1 || !strings.Contains(r.stderr, "did you mean USER.INPUT.MISSING") {
		t.Errorf("unknown code: %d %q", r.code, r.stderr)
	}
}
