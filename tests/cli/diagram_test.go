package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const diagramFlow = `name: flow
states:
  initial: build
  build:
    type: step
    command: make
    on_success: ask
    on_failure: {message: "build broke"}
  ask:
    type: agent
    provider: claude
    prompt: review
    transitions:
      - when: 'states.build.ExitCode == 0'
        goto: done
      - goto: failed
  done: {type: terminal, status: success}
  failed: {type: terminal, status: failure}
`

func diagramEnv(t *testing.T, path string) []string {
	return []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "PATH=" + path}
}

func TestDiagramDOTToStdout(t *testing.T) {
	dir := project(t, map[string]string{"flow.yaml": diagramFlow})
	r := awf(t, dir, diagramEnv(t, os.Getenv("PATH")), "diagram", "flow", "--highlight", "ask")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		`digraph "flow" {`, `s0 [label="build\ncommand"`, `s1 [label="ask\nagent: claude", shape=box, style="rounded,filled", fillcolor="#dbe9ff", penwidth=3`,
		`s1 -> s2 [label="when states.build.ExitCode == 0"`, `s1 -> s3 [label="otherwise"`,
		`s0 -> s4 [label="on_failure"`, `s4 [label="__inline_error_build\ninline on_failure", shape=doublecircle`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestDiagramMermaidFile(t *testing.T) {
	dir := project(t, map[string]string{"flow.yaml": diagramFlow})
	out := filepath.Join(t.TempDir(), "flow.mmd")
	r := awf(t, dir, diagramEnv(t, os.Getenv("PATH")), "diagram", "flow", "-o", out, "--direction", "LR", "--highlight", "done")
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{"flowchart LR\n", `s1(["ask<br/>agent: claude"])`, `-->|"when states.build.ExitCode == 0"| s2`, "class s2 highlight", "class s3 failure"} {
		if !strings.Contains(got, want) {
			t.Errorf("mmd lacks %q:\n%s", want, got)
		}
	}
}

func TestDiagramWithoutGraphviz(t *testing.T) {
	dir := project(t, map[string]string{"flow.yaml": diagramFlow})
	out := filepath.Join(t.TempDir(), "flow.svg")
	r := awf(t, dir, diagramEnv(t, t.TempDir()), "diagram", "flow", "-o", out)
	if r.code != 4 || !strings.Contains(r.stderr, "SYSTEM.DIAGRAM.NO_GRAPHVIZ") || !strings.Contains(r.stderr, "Debian package `graphviz`") ||
		!strings.Contains(r.stderr, "-o diagram.mmd") {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s written without graphviz: %v", out, err)
	}
}

func TestDiagramSVGThroughDotOnPath(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "dot"), []byte("#!/bin/sh\necho \"<svg args='$*'>\"; grep -c -- '->' \n"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := project(t, map[string]string{"flow.yaml": diagramFlow})
	out := filepath.Join(t.TempDir(), "flow.svg")
	r := awf(t, dir, diagramEnv(t, bin+":/usr/bin:/bin"), "diagram", "flow", "-o", out)
	b, _ := os.ReadFile(out)
	if r.code != 0 || string(b) != "<svg args='-Tsvg'>\n5\n" {
		t.Errorf("exit %d %s: %q", r.code, r.stderr, b)
	}
}

func TestDiagramRefusals(t *testing.T) {
	dir := project(t, map[string]string{"flow.yaml": diagramFlow, "bad.yaml": "name: [\n",
		"broken.yaml": "name: broken\nstates:\n  initial: a\n  a: {type: command, command: x, on_success: nowhere}\n"})
	env := diagramEnv(t, os.Getenv("PATH"))
	for _, c := range []struct {
		args       []string
		code       int
		stderr     string
		drawsNodes bool
	}{
		{[]string{"flow", "-o", "x.gif"}, 1, `USER.CLI.INVALID_FORMAT] unknown format "gif"`, false},
		{[]string{"flow", "--direction", "RL"}, 1, `unknown format "RL"`, false},
		{[]string{"flow", "--highlight", "nope"}, 1, `--highlight names unknown state "nope"`, false},
		{[]string{"bad"}, 1, "has no states to draw", false},
		{[]string{"missing"}, 1, "USER.WORKFLOW.NOT_FOUND", false},
		{[]string{"broken"}, 0, "warning: workflow 'broken' has 2 error(s); drawing it anyway", true},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := awf(t, dir, env, append([]string{"diagram"}, c.args...)...)
			if r.code != c.code || !strings.Contains(r.stderr, c.stderr) || strings.Contains(r.stdout, "s0 [") != c.drawsNodes {
				t.Errorf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
		})
	}
}
