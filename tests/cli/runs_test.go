package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pausingWorkflow counts its first step in count, then its second step, until the file go
// exists, says "ready" through the FIFO ready and blocks: the test reads the FIFO, so it acts
// on a run that is certainly inside step two, without sleeping.
const pausingWorkflow = `name: pausing
description: counts, then waits for a go file
inputs:
  - name: dir
    type: string
    required: true
states:
  initial: count
  count:
    type: command
    command: echo x >> {{.inputs.dir}}/count; echo counted
    on_success: wait
  wait:
    type: command
    command: 'test -e {{.inputs.dir}}/go || { echo $$ > {{.inputs.dir}}/shpid; echo ready > {{.inputs.dir}}/ready; sleep 1000; }; echo after {{.states.count.Output}} >> {{.inputs.dir}}/seen'
    on_success: done
  done:
    type: terminal
`

// runsEnv is a project with the pausing workflow, a side-effect dir with the FIFO, and a temp
// HOME and TMPDIR.
type runsEnv struct {
	dir, side, name string
	env             []string
}

func newRunsEnv(t *testing.T) runsEnv { return newRunsEnvWith(t, "pausing", pausingWorkflow) }

func newRunsEnvWith(t *testing.T, name, body string) runsEnv {
	t.Helper()
	e := runsEnv{dir: project(t, map[string]string{name + ".yaml": body}), side: t.TempDir(), name: name,
		env: []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}}
	if err := syscall.Mkfifo(filepath.Join(e.side, "ready"), 0o600); err != nil {
		t.Fatal(err)
	}
	return e
}

// stopped starts a run, waits on the FIFO until it is inside step two, sends sig and returns the
// run id, the exit code and the output.
func (e runsEnv) stopped(t *testing.T, sig syscall.Signal) (id string, code int, out string) {
	t.Helper()
	cmd := exec.Command(awfBin, "run", e.name, "-i", "dir="+e.side)
	cmd.Dir, cmd.Env = e.dir, append(os.Environ(), e.env...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(e.side, "ready")) // blocks until the step opens it to write
	if err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(f).ReadString('\n')
	_ = f.Close()
	if line != "ready\n" {
		t.Fatalf("FIFO said %q", line)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("awf did not exit after %v:\n%s", sig, buf.String())
	}
	entries, err := os.ReadDir(filepath.Join(e.dir, ".awf", "runs"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("no run directory: %v", err)
	}
	return entries[len(entries)-1].Name(), cmd.ProcessState.ExitCode(), buf.String()
}

func (e runsEnv) count(t *testing.T) int {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(e.side, "count"))
	return strings.Count(string(data), "x")
}

func (e runsEnv) statusJSON(t *testing.T, id string) map[string]any {
	t.Helper()
	r := awf(t, e.dir, e.env, "status", id, "--format", "json")
	if r.code != 0 {
		t.Fatalf("status exit %d: %s", r.code, r.stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("status json: %v\n%s", err, r.stdout)
	}
	return doc
}

func TestInterruptedRunResumesWithoutRerunningFinishedSteps(t *testing.T) {
	e := newRunsEnv(t)
	id, code, out := e.stopped(t, syscall.SIGINT)
	if code != 130 || !strings.Contains(out, "awf resume "+id) {
		t.Fatalf("exit %d, want 130 and a resume line:\n%s", code, out)
	}
	doc := e.statusJSON(t, id)
	if doc["status"] != "interrupted" || doc["current"] != "wait" || len(doc["steps"].([]any)) != 1 {
		t.Fatalf("status after SIGINT: %v", doc)
	}
	text := awf(t, e.dir, e.env, "status", id)
	if !strings.Contains(text.stdout, "interrupted") || !strings.Contains(text.stdout, "count") || !strings.Contains(text.stdout, "awf resume "+id) {
		t.Fatalf("status text:\n%s", text.stdout)
	}
	touch(t, filepath.Join(e.side, "go"))
	r := awf(t, e.dir, e.env, "resume", id)
	if r.code != 0 {
		t.Fatalf("resume exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := e.count(t); n != 1 {
		t.Fatalf("count ran %d times, want 1 (a finished step ran again)", n)
	}
	seen, _ := os.ReadFile(filepath.Join(e.side, "seen"))
	if string(seen) != "after counted\n" {
		t.Fatalf("the resumed step saw %q, want the recorded output of count", seen)
	}
	if doc := e.statusJSON(t, id); doc["status"] != "success" || doc["resumed"] != 1.0 {
		t.Fatalf("status after resume: %v", doc)
	}
	again := awf(t, e.dir, e.env, "resume", id)
	if again.code != 1 || !strings.Contains(again.stderr, "USER.RUN.NOT_RESUMABLE") {
		t.Fatalf("resume of a succeeded run: exit %d %s", again.code, again.stderr)
	}
}

func TestKilledRunIsCrashedAndResumes(t *testing.T) {
	e := newRunsEnv(t)
	id, code, _ := e.stopped(t, syscall.SIGKILL)
	if code != -1 {
		t.Fatalf("exit %d after SIGKILL", code)
	}
	killStrays(t, e.side)
	if doc := e.statusJSON(t, id); doc["status"] != "crashed" || doc["current"] != "wait" {
		t.Fatalf("status after SIGKILL: %v", doc)
	}
	touch(t, filepath.Join(e.side, "go"))
	if r := awf(t, e.dir, e.env, "resume", id); r.code != 0 {
		t.Fatalf("resume exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := e.count(t); n != 1 {
		t.Fatalf("count ran %d times, want 1", n)
	}
}

func TestResumeFromAndChangedWorkflow(t *testing.T) {
	e := newRunsEnv(t)
	id, _, _ := e.stopped(t, syscall.SIGINT)
	touch(t, filepath.Join(e.side, "go"))
	if r := awf(t, e.dir, e.env, "resume", id, "--from", "cuont"); r.code != 1 || !strings.Contains(r.stderr, "USER.RUN.UNKNOWN_STATE") || !strings.Contains(r.stderr, "count") {
		t.Fatalf("--from unknown: exit %d %s", r.code, r.stderr)
	}
	file := filepath.Join(e.dir, ".awf", "workflows", "pausing.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(pausingWorkflow, "echo counted", "echo counted twice", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := awf(t, e.dir, e.env, "resume", id); r.code != 1 || !strings.Contains(r.stderr, "USER.RUN.WORKFLOW_CHANGED") || !strings.Contains(r.stderr, "--force") {
		t.Fatalf("changed workflow: exit %d %s", r.code, r.stderr)
	}
	if n := e.count(t); n != 1 {
		t.Fatalf("a refused resume ran steps: count %d", n)
	}
	r := awf(t, e.dir, e.env, "resume", id, "--from", "count", "--force")
	if r.code != 0 {
		t.Fatalf("resume --from count --force: exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	if n := e.count(t); n != 2 {
		t.Fatalf("--from count: count ran %d times in all, want 2", n)
	}
	seen, _ := os.ReadFile(filepath.Join(e.side, "seen"))
	if string(seen) != "after counted twice\n" {
		t.Fatalf("forced resume ran %q, want the edited workflow", seen)
	}
	if r := awf(t, e.dir, e.env, "resume", "no-such-run"); r.code != 1 || !strings.Contains(r.stderr, "USER.RUN.NOT_FOUND") || !strings.Contains(r.stderr, id) {
		t.Fatalf("unknown id: exit %d %s", r.code, r.stderr)
	}
}

func TestHistoryFiltersAndList(t *testing.T) {
	dir := project(t, map[string]string{
		"ok.yaml":   "name: ok\ndescription: always fine\nstates:\n  initial: a\n  a:\n    type: command\n    command: 'true'\n    on_success: done\n  done:\n    type: terminal\n",
		"fail.yaml": "name: fail\ninputs:\n  - name: why\n    type: string\n    default: because\nstates:\n  initial: a\n  a:\n    type: command\n    command: 'false'\n    on_success: done\n  done:\n    type: terminal\n",
	})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	for _, w := range []string{"ok", "fail", "ok"} {
		awf(t, dir, env, "run", w)
	}
	tests := []struct {
		args []string
		want map[string]int // workflow:status → count
	}{
		{nil, map[string]int{"ok:success": 2, "fail:failure": 1}},
		{[]string{"--workflow", "ok"}, map[string]int{"ok:success": 2}},
		{[]string{"--status", "failure"}, map[string]int{"fail:failure": 1}},
		{[]string{"--status", "failed"}, map[string]int{"fail:failure": 1}}, // the older word, and the reference's
		{[]string{"--workflow", "fail", "--status", "succeeded"}, map[string]int{}},
	}
	for _, tt := range tests {
		r := awf(t, dir, env, append([]string{"history", "--format", "json"}, tt.args...)...)
		var runs []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || r.code != 0 {
			t.Fatalf("history %v: exit %d %v\n%s%s", tt.args, r.code, err, r.stdout, r.stderr)
		}
		got := map[string]int{}
		for _, run := range runs {
			got[run["workflow"].(string)+":"+run["status"].(string)]++
			if _, ok := run["tool_calls"]; !ok {
				t.Fatalf("no tool_calls in %v", run)
			}
		}
		if len(got) != len(tt.want) {
			t.Fatalf("history %v: %v, want %v", tt.args, got, tt.want)
		}
		for k, n := range tt.want {
			if got[k] != n {
				t.Fatalf("history %v: %v, want %v", tt.args, got, tt.want)
			}
		}
	}
	if r := awf(t, dir, env, "history"); !strings.Contains(r.stdout, "WORKFLOW") || strings.Count(r.stdout, "success") != 2 {
		t.Fatalf("history text:\n%s", r.stdout)
	}
	r := awf(t, dir, env, "list")
	if !strings.Contains(r.stdout, "ok — always fine") || !strings.Contains(r.stdout, "--input why=<string>  (default because)") {
		t.Fatalf("list:\n%s", r.stdout)
	}
}

func touch(t *testing.T, p string) {
	t.Helper()
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// killStrays ends the step a SIGKILLed awf could not end: the step's shell leads its own
// process group (the shell and its sleep) and wrote its pid to shpid.
func killStrays(t *testing.T, side string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(side, "shpid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 1 || pid == syscall.Getpgrp() {
		t.Fatalf("bad step pid %q", data)
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

func TestDryRunPrintsPlanAndRunsNothing(t *testing.T) {
	dir := project(t, map[string]string{"probe.yaml": `name: probe
inputs:
  - name: who
    type: string
    required: true
states:
  initial: make
  make:
    type: command
    command: touch probe-file; echo hi {{.inputs.who}}
    on_success: use
  use:
    type: command
    command: echo got {{.states.make.Output}}
    on_success: done
  done:
    type: terminal
`})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "run", "probe", "--dry-run", "-i", "who=it's; rm -rf x")
	if r.code != 0 {
		t.Fatalf("dry run exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{`$ touch probe-file; echo hi 'it'\''s; rm -rf x'`, `$ echo got '<states.make.output>'`, "on_success → use"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("plan lacks %q:\n%s", want, r.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "probe-file")); err == nil {
		t.Fatal("--dry-run executed a command")
	}
	if _, err := os.Stat(filepath.Join(dir, ".awf", "runs")); err == nil {
		t.Fatal("--dry-run made a run directory")
	}
	missing := awf(t, dir, env, "run", "probe", "--dry-run", "--format", "json")
	if missing.code != 1 || !strings.Contains(missing.stdout, `<inputs.who>`) || !strings.Contains(missing.stderr, "USER.INPUT.MISSING") {
		t.Fatalf("dry run with a missing input: exit %d\n%s%s", missing.code, missing.stdout, missing.stderr)
	}
}

// loopsWorkflow runs a parallel state (fast and a branch that counts), then a for_each whose
// second iteration waits for the go file; every step appends its name to count.
const loopsWorkflow = `name: loops
inputs:
  - name: dir
    type: string
    required: true
states:
  initial: checks
  checks:
    type: parallel
    parallel: [lint, vet]
    strategy: all_succeed
    on_success: each
  lint:
    type: command
    command: echo lint >> {{.inputs.dir}}/count
  vet:
    type: command
    command: echo vet >> {{.inputs.dir}}/count
  each:
    type: for_each
    items: '["1", "2", "3"]'
    body: [work]
    on_complete: done
  work:
    type: command
    command: 'echo item{{.loop.Item}} >> {{.inputs.dir}}/count; if [ {{.loop.Item}} = 2 ] && ! test -e {{.inputs.dir}}/go; then echo $$ > {{.inputs.dir}}/shpid; echo ready > {{.inputs.dir}}/ready; sleep 1000; fi'
    on_success: each
  done:
    type: terminal
`

// TestResumeMidLoop interrupts (SIGINT, then SIGKILL) a for_each in its second iteration and
// checks that the resumed run neither re-runs the parallel branches nor the first iteration.
func TestResumeMidLoop(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			e := newRunsEnvWith(t, "loops", loopsWorkflow)
			id, _, out := e.stopped(t, sig)
			if sig == syscall.SIGKILL {
				killStrays(t, e.side)
			}
			doc := e.statusJSON(t, id)
			if want := map[syscall.Signal]string{syscall.SIGINT: "interrupted", syscall.SIGKILL: "crashed"}[sig]; doc["status"] != want || doc["current"] != "each" {
				t.Fatalf("status %v, want %s at each:\n%s", doc, want, out)
			}
			touch(t, filepath.Join(e.side, "go"))
			if r := awf(t, e.dir, e.env, "resume", id); r.code != 0 {
				t.Fatalf("resume exit %d:\n%s%s", r.code, r.stdout, r.stderr)
			}
			data, _ := os.ReadFile(filepath.Join(e.side, "count"))
			lines := strings.Fields(string(data))
			counts := map[string]int{}
			for _, l := range lines {
				counts[l]++
			}
			// item2 was stopped mid-step, so it runs twice; nothing that finished runs again.
			want := map[string]int{"lint": 1, "vet": 1, "item1": 1, "item2": 2, "item3": 1}
			for k, n := range want {
				if counts[k] != n {
					t.Fatalf("side effects %v, want %v", counts, want)
				}
			}
			if doc := e.statusJSON(t, id); doc["status"] != "success" {
				t.Fatalf("after resume: %v", doc)
			}
		})
	}
}

// parallelWorkflow has a branch that finishes and one that waits for the go file. The slow
// branch signals ready only once the run's state records the fast one as finished: its output
// in count comes before its exit, and a signal in between rightly runs it again on resume.
const parallelWorkflow = `name: par
inputs:
  - name: dir
    type: string
    required: true
states:
  initial: both
  both:
    type: parallel
    parallel: [fast, slow]
    strategy: all_succeed
    on_success: done
  fast:
    type: command
    command: echo fast >> {{.inputs.dir}}/count
  slow:
    type: command
    command: 'while ! grep -qs "\"name\":\"fast\"" .awf/runs/*/state.json .awf/runs/*/journal.jsonl; do sleep 0.01; done; echo slow >> {{.inputs.dir}}/count; test -e {{.inputs.dir}}/go || { echo $$ > {{.inputs.dir}}/shpid; echo ready > {{.inputs.dir}}/ready; sleep 1000; }'
  done:
    type: terminal
`

// TestResumeMidParallel interrupts a parallel state whose first branch finished: the resumed
// run replays that branch and re-runs only the stopped one.
func TestResumeMidParallel(t *testing.T) {
	e := newRunsEnvWith(t, "par", parallelWorkflow)
	id, code, out := e.stopped(t, syscall.SIGINT)
	if code != 130 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	touch(t, filepath.Join(e.side, "go"))
	if r := awf(t, e.dir, e.env, "resume", id); r.code != 0 {
		t.Fatalf("resume exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	data, _ := os.ReadFile(filepath.Join(e.side, "count"))
	if got := strings.Join(strings.Fields(string(data)), ","); got != "fast,slow,slow" {
		t.Fatalf("side effects %s, want fast,slow,slow (the finished branch ran again?)", got)
	}
}

// TestResumeFailedRun resumes a run that ended in a failure terminal: it continues at the step
// that failed, not at the terminal, and the step before it does not run again.
func TestResumeFailedRun(t *testing.T) {
	dir := project(t, map[string]string{"fails.yaml": `name: fails
inputs:
  - name: dir
    type: string
    required: true
states:
  initial: count
  count:
    type: command
    command: echo x >> {{.inputs.dir}}/count
    on_success: check
  check:
    type: command
    command: test -e {{.inputs.dir}}/go
    on_success: done
    on_failure: failed
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`})
	side := t.TempDir()
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	if r := awf(t, dir, env, "run", "fails", "-i", "dir="+side); r.code != 2 {
		t.Fatalf("run exit %d, want 2", r.code)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, ".awf", "runs"))
	id := entries[0].Name()
	if r := awf(t, dir, env, "history", "--status", "failed"); !strings.Contains(r.stdout, id) {
		t.Fatalf("history --status failed:\n%s", r.stdout)
	}
	touch(t, filepath.Join(side, "go"))
	if r := awf(t, dir, env, "resume", id); r.code != 0 {
		t.Fatalf("resume exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	data, _ := os.ReadFile(filepath.Join(side, "count"))
	if string(data) != "x\n" {
		t.Fatalf("count ran again: %q", data)
	}
}
