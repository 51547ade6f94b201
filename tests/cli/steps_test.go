package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunScriptFileAndHooks runs a workflow with a shebang script_file, step and workflow hooks,
// continue_on_error and an inline on_failure through bin/awf, and checks the order in which
// everything ran, the console lines and the exit code.
func TestRunScriptFileAndHooks(t *testing.T) {
	wf := `name: steps
inputs:
  - name: who
    type: string
    default: "a b; touch INJECTED"
hooks:
  workflow_start:
    - log: "starting {{.workflow.name}}"
    - command: echo start >> "$LOG"
  workflow_end:
    - command: echo "end {{.states.build.Output}}" >> "$LOG"
  workflow_error:
    - command: echo "error {{.error.state}} {{.error.exit_code}}" >> "$LOG"
states:
  initial: build
  build:
    type: step
    script_file: scripts/build.sh
    hooks:
      pre:
        - command: echo pre >> "$LOG"
      post:
        - command: echo "post {{.states.build.ExitCode}}" >> "$LOG"
        - command: exit 4
    on_success: lint
    on_failure: failed
  lint:
    type: step
    command: echo lint >> "$LOG"; exit 3
    continue_on_error: true
    on_success: check
    on_failure: failed
  check:
    type: step
    command: test {{.states.lint.ExitCode}} = 3 && test {{.inputs.which}} = ok
    on_success: done
    on_failure: {message: "check failed after lint exit {{.states.lint.ExitCode}}", status: 3}
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`
	wf = strings.Replace(wf, "inputs:\n", "inputs:\n  - name: which\n    type: string\n    default: ok\n", 1)
	dir := project(t, map[string]string{"steps.yaml": wf})
	scripts := filepath.Join(dir, ".awf", "workflows", "scripts")
	must(t, os.MkdirAll(scripts, 0o755))
	must(t, os.WriteFile(filepath.Join(scripts, "build.sh"), []byte("#!/bin/sh -e\necho \"script $0 {{.inputs.who}}\" >> \"$LOG\"\necho built\n"), 0o644))
	log := filepath.Join(t.TempDir(), "log")
	env := []string{"LOG=" + log, "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}

	r := awf(t, dir, env, "run", "steps")
	all := r.stdout + r.stderr
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, all)
	}
	got := readLog(t, log)
	want := []string{"start", "pre", "script " + "SCRIPT a b; touch INJECTED", "post 0", "lint", "end built"}
	if len(got) != len(want) || !strings.HasPrefix(got[2], "script /") || !strings.HasSuffix(got[2], "/script a b; touch INJECTED") {
		t.Fatalf("log:\n%s\nwant like:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i, w := range want {
		if i != 2 && got[i] != w {
			t.Errorf("log line %d = %q, want %q", i, got[i], w)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "INJECTED")); err == nil {
		t.Error("the input ran as shell code in the script")
	}
	for _, w := range []string{"• hook workflow_start: starting steps", "• hook pre build: ran echo pre", "⚠ hook post build: command failed: exit code 4",
		"✗ lint failure", "→ check", "• hook workflow_end: ran echo"} {
		if !strings.Contains(all, w) {
			t.Errorf("output lacks %q:\n%s", w, all)
		}
	}

	// The inline on_failure ends the run as a failure, and workflow_error sees where.
	must(t, os.Remove(log))
	r = awf(t, dir, env, "run", "steps", "-i", "which=no")
	if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "check failed after lint exit 3") {
		t.Fatalf("exit %d\n%s", r.code, r.stdout+r.stderr)
	}
	if got := readLog(t, log); got[len(got)-1] != "error __inline_error_check 1" {
		t.Errorf("log:\n%s", strings.Join(got, "\n"))
	}
}

// TestValidateConversation: conversation steps validate; continue_from a step that keeps no
// session is refused with its position, by validate and by run, before any agent runs.
func TestValidateConversation(t *testing.T) {
	wf := `name: chat
states:
  initial: ask
  ask:
    type: agent
    provider: claude
    prompt: hi
    on_success: again
  again:
    type: agent
    provider: claude
    prompt: and?
    conversation:
      continue_from: ask
    on_success: done
  done:
    type: terminal
`
	ok := strings.Replace(wf, "    prompt: hi\n", "    prompt: hi\n    mode: conversation\n", 1)
	dir := project(t, map[string]string{"chat.yaml": wf, "ok.yaml": strings.Replace(ok, "name: chat", "name: ok", 1)})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	for _, args := range [][]string{{"validate", "chat"}, {"run", "chat"}} {
		r := awf(t, dir, env, args...)
		all := r.stdout + r.stderr
		if r.code != 1 || !strings.Contains(all, "chat.yaml:14:22") || !strings.Contains(all, `names "ask", which keeps no session`) || !strings.Contains(all, "USER.CONVERSATION.NO_SESSION") {
			t.Errorf("awf %v: exit %d\n%s", args, r.code, all)
		}
	}
	if r := awf(t, dir, env, "validate", "ok"); r.code != 0 {
		t.Errorf("a conversation step that keeps its session is refused: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func readLog(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
