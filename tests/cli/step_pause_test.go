package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stepper builds (leaving a marker), then deploys what build printed (leaving another).
const stepper = `name: stepper
states:
  initial: build
  build:
    type: command
    command: echo x >> build.marker && echo built-1
    on_success: deploy
  deploy:
    type: command
    command: echo x >> deploy.marker && echo "deploying {{.states.build.Output}}"
    on_success: done
    on_failure: failed
  done: {type: terminal}
  failed: {type: terminal, status: failure}
`

// awfIn is awf with stdin.
func awfIn(t *testing.T, dir string, env []string, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, awfBin, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, append(os.Environ(), env...), strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

func markers(dir string) string {
	var have []string
	for _, m := range []string{"build.marker", "deploy.marker"} {
		if b, err := os.ReadFile(filepath.Join(dir, m)); err == nil {
			have = append(have, m+":"+itoaLines(b))
		}
	}
	return strings.Join(have, ",")
}

func itoaLines(b []byte) string { return strings.Repeat("I", bytes.Count(b, []byte("\n"))) }

// TestRunStepWithMocks: --step runs the one state, reading the mocked result of the state
// before it, which does not run; bad --mock and --step uses are refused with a hint.
func TestRunStepWithMocks(t *testing.T) {
	dir := project(t, map[string]string{"stepper.yaml": stepper})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "run", "stepper", "--step", "deploy", "--mock", "states.build.Output=build-123", "--format", "json")
	var doc struct {
		Status string
		Steps  []struct{ Name, Output string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 0 {
		t.Fatalf("--step: %d %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	if doc.Status != "success" || len(doc.Steps) != 1 || doc.Steps[0].Name != "deploy" || doc.Steps[0].Output != "deploying build-123" {
		t.Fatalf("--step ran %+v", doc)
	}
	if got := markers(dir); got != "deploy.marker:I" {
		t.Fatalf("side effects %q: want deploy once and build never", got)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--mock", "states.build.Output=x"}, "--mock needs --step"},
		{[]string{"--step", "deploy", "--mock", "states.biuld.Output=x"}, "did you mean 'build'"},
		{[]string{"--step", "deploy", "--mock", "build=x"}, "states.<state>.<Field>=<value>"},
		{[]string{"--step", "deploy", "--mock", "states.build.ExitCode=many"}, "whole number"},
		{[]string{"--step", "done"}, "is a terminal state"},
		{[]string{"--step", "deplo"}, "did you mean 'deploy'"},
	} {
		r := awf(t, dir, env, append([]string{"run", "stepper"}, tc.args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 1 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestBreakpointAbortThenResume: a run paused before deploy and aborted there ends interrupted
// without starting deploy; awf resume runs it. --interactive asks before each state; an
// unknown breakpoint is refused before anything runs; input that ends lets the run finish.
func TestBreakpointAbortThenResume(t *testing.T) {
	dir := project(t, map[string]string{"stepper.yaml": stepper})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awfIn(t, dir, env, "i\na\n", "run", "stepper", "--breakpoint", "deploy")
	if r.code != 130 || strings.Count(r.stderr, "before deploy") != 2 || !strings.Contains(r.stderr, "command: echo x >> deploy.marker") {
		t.Fatalf("abort at deploy: exit %d\n%s", r.code, r.stderr)
	}
	if got := markers(dir); got != "build.marker:I" {
		t.Fatalf("side effects %q: deploy must not start once aborted", got)
	}
	id := regexpRunID(t, r.stderr)
	if r := awf(t, dir, env, "resume", id); r.code != 0 || markers(dir) != "build.marker:I,deploy.marker:I" {
		t.Fatalf("resume: %d %s, markers %q", r.code, r.stderr, markers(dir))
	}
	_ = os.Remove(filepath.Join(dir, "build.marker"))
	_ = os.Remove(filepath.Join(dir, "deploy.marker"))
	r = awfIn(t, dir, env, "c\n\n", "run", "stepper", "--interactive")
	if r.code != 0 || !strings.Contains(r.stderr, "before build") || !strings.Contains(r.stderr, "before deploy") {
		t.Fatalf("--interactive: %d\n%s", r.code, r.stderr)
	}
	if r := awfIn(t, dir, env, "", "run", "stepper", "--breakpoint", "deply"); r.code != 1 || !strings.Contains(r.stderr, "did you mean 'deploy'") {
		t.Fatalf("unknown breakpoint: %d %s", r.code, r.stderr)
	}
	if r := awfIn(t, dir, env, "", "run", "stepper", "--interactive"); r.code != 0 || !strings.Contains(r.stderr, "no more input") {
		t.Fatalf("--interactive without input: %d %s", r.code, r.stderr)
	}
}

func regexpRunID(t *testing.T, s string) string {
	t.Helper()
	i := strings.LastIndex(s, "awf resume ")
	if i < 0 {
		t.Fatalf("no resume line in %s", s)
	}
	return strings.Fields(s[i+len("awf resume "):])[0]
}
