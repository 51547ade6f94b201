package engine_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestContinueOnErrorInLoopBody: continue_on_error on a loop's body state goes on to the next
// body state and the next item, as it does outside a loop, and the failure stays readable.
func TestContinueOnErrorInLoopBody(t *testing.T) {
	p := newProject(t, "coe", `name: coe
states:
  initial: each
  each:
    type: for_each
    items: [a, b]
    body: [lint, report]
    on_complete: done
    on_failure: failed
  lint: {type: command, command: 'echo "lint {{.loop.Item}}" >&2; exit 3', continue_on_error: true}
  report: {type: command, command: 'echo "{{.loop.Item}} lint exit {{.states.lint.ExitCode}}"'}
  done: {type: terminal}
  failed: {type: terminal, status: failure}
`)
	if r := p.awf(t, "validate", "coe"); r.code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	doc, r := p.runJSON(t, "coe")
	if doc.Status != "success" || doc.Terminal != "done" || r.code != 0 {
		t.Fatalf("run ended %s in %q (exit %d), want success in done:\n%s", doc.Status, doc.Terminal, r.code, r.stdout)
	}
	if got := strings.Join(doc.outputs("report"), "|"); got != "a lint exit 3|b lint exit 3" {
		t.Errorf("report outputs %q", got)
	}
}

// TestExhaustedLoopSaysSoAndRoutes: a while stopped at max_iterations without break_when
// holding is Exhausted, counts its Iterations, says so on the console, and goes to
// on_exhausted; one whose break_when held goes to on_complete.
func TestExhaustedLoopSaysSoAndRoutes(t *testing.T) {
	const wf = `name: fix
inputs:
  - name: green
    type: string
    default: "no"
states:
  initial: attempts
  attempts:
    type: while
    max_iterations: 3
    break_when: 'states.test.Output == "pass"'
    body: [test]
    on_complete: fixed
    on_exhausted: gave_up
  test: {type: command, command: 'if [ "{{.inputs.green}}" = yes ]; then echo pass; else echo fail; fi'}
  fixed: {type: command, command: 'echo "fixed after {{.states.attempts.Iterations}}, exhausted {{.states.attempts.Exhausted}}"', on_success: done}
  gave_up: {type: command, command: 'echo "gave up after {{.states.attempts.Iterations}}, exhausted {{.states.attempts.Exhausted}}"', on_success: done}
  done: {type: terminal}
`
	p := newProject(t, "fix", wf)
	if r := p.awf(t, "validate", "fix"); r.code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := p.awf(t, "run", "fix")
	if r.code != 0 || !strings.Contains(r.stdout, "stopped at max_iterations 3 without break_when → gave_up") ||
		!strings.Contains(r.stdout, "gave up after 3, exhausted true") {
		t.Fatalf("exhausted run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	doc, _ := p.runJSON(t, "fix", "--input", "green=yes")
	if got := doc.outputs("fixed"); len(got) != 1 || got[0] != "fixed after 1, exhausted false" {
		t.Errorf("a loop whose break_when held: fixed printed %q; steps %+v", got, doc.Steps)
	}
	bad := newProject(t, "fix", strings.Replace(wf, "on_exhausted: gave_up", "on_exhausted: gaveup", 1))
	if r := bad.awf(t, "validate", "fix"); r.code != 1 || !strings.Contains(r.stderr+r.stdout, `on_exhausted of state "attempts" names unknown state "gaveup"`) {
		t.Errorf("validate of a misspelt on_exhausted: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// maxConcurrentWorkflow runs twelve items of `sleep 1` four at a time.
const maxConcurrentWorkflow = `name: fan
states:
  initial: each
  each:
    type: for_each
    items: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    max_concurrent: 4
    body: [nap]
    on_complete: done
  nap: {type: command, command: 'sleep 1; echo "{{.loop.Item}}"'}
  done: {type: terminal}
`

// TestForEachMaxConcurrentWallClock is the acceptance bound: twelve items of one second, four at
// a time, take three rounds, 3 to 4.5 s (one at a time they take 12 s; all at once 1 s).
func TestForEachMaxConcurrentWallClock(t *testing.T) {
	p := newProject(t, "fan", maxConcurrentWorkflow)
	doc, r := p.runJSON(t, "fan")
	if doc.Status != "success" {
		t.Fatalf("run: %s exit %d\n%s%s", doc.Status, r.code, r.stdout, r.stderr)
	}
	var loop time.Duration
	for _, s := range doc.Steps {
		if s.Name == "each" {
			loop = time.Duration(s.DurationMS) * time.Millisecond
		}
	}
	t.Logf("for_each of 12 × sleep 1 with max_concurrent 4: loop %s, awf run %s", loop, r.took)
	if loop < 3*time.Second || loop > 4500*time.Millisecond {
		t.Errorf("the loop took %s, want 3 to 4.5 s", loop)
	}
	if n := len(doc.outputs("nap")); n != 12 {
		t.Errorf("%d items ran, want 12", n)
	}
}

// concurrentResumeWorkflow runs four items side by side: a and b finish at once, c and d wait
// (writing their shell's pid) until the file go exists. Each item appends a line to its own
// count file when it starts.
const concurrentResumeWorkflow = `name: half
inputs:
  - name: dir
    type: string
    required: true
states:
  initial: each
  each:
    type: for_each
    items: [a, b, c, d]
    max_concurrent: 4
    body: [work]
    on_complete: done
  work:
    type: command
    command: |
      echo x >> "{{.inputs.dir}}/count/{{.loop.Item}}"
      case "{{.loop.Item}}" in a|b) echo quick; exit 0;; esac
      if [ ! -e "{{.inputs.dir}}/go" ]; then
        echo $$ > "{{.inputs.dir}}/pids/{{.loop.Item}}"
        exec sleep 600
      fi
      echo slow
  done: {type: terminal}
`

// TestForEachMaxConcurrentInterruptAndResume: Ctrl+C stops every running iteration (their
// processes are gone when awf exits with 130), and `awf resume` runs again only the items that
// had not finished.
func TestForEachMaxConcurrentInterruptAndResume(t *testing.T) {
	p := newProject(t, "half", concurrentResumeWorkflow)
	side := t.TempDir()
	for _, d := range []string{"count", "pids"} {
		if err := os.Mkdir(filepath.Join(side, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(awfBin(t), "run", "half", "--input", "dir="+side)
	cmd.Dir, cmd.Env = p.dir, append(os.Environ(), p.env...)
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until c and d sleep and a and b have been recorded as finished.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		pids, _ := os.ReadDir(filepath.Join(side, "pids"))
		if len(pids) == 2 && strings.Count(out.String(), "✓ work in each[") == 2 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the items never reached their pause:\n%s", out.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("awf did not exit after SIGINT:\n%s", out.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d after SIGINT, want 130:\n%s", code, out.String())
	}
	gone(t, filepath.Join(side, "pids"))
	runs, err := os.ReadDir(filepath.Join(p.dir, ".awf", "runs"))
	if err != nil || len(runs) != 1 {
		t.Fatalf("run directories: %v %v", runs, err)
	}
	if err := os.WriteFile(filepath.Join(side, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := p.awf(t, "resume", runs[0].Name()); r.code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	counts := lineCounts(t, filepath.Join(side, "count"))
	if counts["a"] != 1 || counts["b"] != 1 || counts["c"] != 2 || counts["d"] != 2 {
		t.Errorf("starts per item %v: want a and b once (finished before Ctrl+C), c and d twice", counts)
	}
}

// TestWorkflowTimeout: past the workflow's timeout the run fails with EXECUTION.RUN.TIMEOUT and
// exit code 3, and the step's processes are gone.
func TestWorkflowTimeout(t *testing.T) {
	side := t.TempDir()
	p := newProject(t, "slow", `name: slow
timeout: 1s
states:
  initial: wait
  wait: {type: command, command: 'echo $$ > "`+side+`/sh"; sleep 600 & echo $! > "`+side+`/bg"; wait', on_success: done}
  done: {type: terminal}
`)
	doc, r := p.runJSON(t, "slow")
	if r.code != 3 || doc.Status != "failure" || doc.Error.Code != "EXECUTION.RUN.TIMEOUT" || !strings.Contains(doc.Error.Message, "timeout of 1s") {
		t.Fatalf("exit %d, status %s, error %+v\n%s", r.code, doc.Status, doc.Error, r.stderr)
	}
	if r.took > 20*time.Second {
		t.Errorf("a run with a 1 s timeout took %s", r.took)
	}
	gone(t, side)
}

// TestStepEnv: a step's env reaches its command as variables, templated, a hostile value as
// data, and not the next step.
func TestStepEnv(t *testing.T) {
	side := t.TempDir()
	p := newProject(t, "env", `name: env
inputs:
  - name: who
    type: string
states:
  initial: greet
  greet:
    type: command
    env:
      WHO: '{{.inputs.who}}'
      GREETING: hello
    command: 'printf "%s, %s" "$GREETING" "$WHO"'
    on_success: after
  after: {type: command, command: 'printf "%s" "${WHO:-unset}"', on_success: done}
  done: {type: terminal}
`)
	if r := p.awf(t, "validate", "env"); r.code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	hostile := `$(touch ` + side + `/PWNED)"; touch ` + side + `/PWNED; #`
	doc, r := p.runJSON(t, "env", "--input", "who="+hostile)
	if doc.Status != "success" {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := doc.outputs("greet"); len(got) != 1 || got[0] != "hello, "+hostile {
		t.Errorf("greet printed %q", got)
	}
	if got := doc.outputs("after"); len(got) != 1 || got[0] != "unset" {
		t.Errorf("the next step saw WHO=%q", got)
	}
	if _, err := os.Stat(filepath.Join(side, "PWNED")); err == nil {
		t.Error("a value in env ran as code")
	}
}

// TestItemsFromLinesAndValidatedShape: {{lines …}} makes a command's output the items of a
// for_each; items that are neither a list nor a template are refused by awf validate, and by
// awf run before the first state runs.
func TestItemsFromLinesAndValidatedShape(t *testing.T) {
	side := t.TempDir()
	p := newProject(t, "ls", `name: ls
states:
  initial: ls
  ls: {type: command, command: 'printf "b.go\n\na c.go\n"', on_success: each}
  each:
    type: for_each
    items: '{{lines .states.ls.Output}}'
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo "{{.loop.Index1}}/{{.loop.Length}} {{.loop.Item}}"'}
  done: {type: terminal}
`)
	doc, r := p.runJSON(t, "ls")
	if doc.Status != "success" || strings.Join(doc.outputs("show"), "|") != "1/2 b.go|2/2 a c.go" {
		t.Fatalf("run: exit %d, shows %q\n%s", r.code, doc.outputs("show"), r.stderr)
	}
	bad := newProject(t, "ls", `name: ls
states:
  initial: first
  first: {type: command, command: 'touch "`+side+`/ran"', on_success: each}
  each:
    type: for_each
    items: 'a.go, b.go'
    body: [show]
    on_complete: done
  show: {type: command, command: 'echo "{{.loop.Item}}"'}
  done: {type: terminal}
`)
	v := bad.awf(t, "validate", "ls")
	if v.code != 1 || !strings.Contains(v.stderr+v.stdout, "ls.yaml:7:12: error: items of for_each state \"each\" is neither a list nor a template") ||
		!strings.Contains(v.stderr+v.stdout, "USER.WORKFLOW.INVALID_ITEMS") || !strings.Contains(v.stderr+v.stdout, "lines") {
		t.Errorf("validate: exit %d\n%s%s", v.code, v.stdout, v.stderr)
	}
	if r := bad.awf(t, "run", "ls"); r.code != 1 {
		t.Errorf("run of a workflow with bad items: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(side, "ran")); err == nil {
		t.Error("a state before the loop ran although the items could never be read")
	}
}
