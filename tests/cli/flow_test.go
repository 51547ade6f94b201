package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// controlFlowWorkflow runs a parallel state (two checks), then a for_each over files whose body holds
// a while loop retrying until a marker file appears, then reports what every step left behind.
const controlFlowWorkflow = `name: flow
inputs:
  - name: files
    type: string
    default: '["a.go", "b.go"]'
states:
  initial: checks
  checks:
    type: parallel
    parallel: [lint, vet]
    strategy: all_succeed
    max_concurrent: 2
    on_success: each
    on_failure: failed
  lint:
    type: command
    command: echo lint ok
  vet:
    type: command
    command: echo vet ok
  each:
    type: for_each
    items: '{{.inputs.files}}'
    body: [show, settle]
    on_complete: report
    on_failure: failed
  show:
    type: command
    command: echo "{{.loop.Index1}}/{{.loop.Length}} {{.loop.Item}}"
    on_success: each
  settle:
    type: while
    while: 'loop.First || states.poll.Output != "ready"'
    max_iterations: 5
    body: [poll]
    on_complete: each
  poll:
    type: command
    command: if [ -e "m{{.loop.Parent.Index}}" ]; then echo ready; else touch "m{{.loop.Parent.Index}}"; echo wait; fi
    on_success: settle
  report:
    type: command
    command: echo "{{.states.lint.Output}} / {{.states.vet.Output}} / {{.states.show.Output}} / {{.states.poll.Output}} / {{.states.each.Output}}"
    on_success: done
  failed:
    type: terminal
    status: failure
  done:
    type: terminal
`

type jsonStep struct {
	Name, Status, Output, Next, Within string
}

// TestFlowRunsThroughTheBinary runs parallel + for_each + while through bin/awf and checks the
// order of the steps, where each ran, and the outputs.
func TestFlowRunsThroughTheBinary(t *testing.T) {
	dir := project(t, map[string]string{"flow.yaml": controlFlowWorkflow})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	if r := awf(t, dir, env, "validate", "flow"); r.code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := awf(t, dir, env, "run", "flow", "--format", "json")
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var res struct {
		Status string
		Steps  []jsonStep
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var got []string
	for _, s := range res.Steps {
		if s.Name == "lint" || s.Name == "vet" { // the two branches finish in any order
			got = append(got, "branch@"+s.Within)
			continue
		}
		got = append(got, s.Name+"@"+s.Within+":"+s.Output)
	}
	want := []string{"branch@checks", "branch@checks", "checks@:",
		"show@each[0]:1/2 a.go", "poll@each[0]/settle[0]:wait", "poll@each[0]/settle[1]:ready", "settle@each[0]:completed 2 iterations",
		"show@each[1]:2/2 b.go", "poll@each[1]/settle[0]:wait", "poll@each[1]/settle[1]:ready", "settle@each[1]:completed 2 iterations",
		"each@:completed 2 iterations", "report@:lint ok / vet ok / 2/2 b.go / ready / completed 2 iterations"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	if res.Status != "success" {
		t.Errorf("status %s", res.Status)
	}
	text := awf(t, project(t, map[string]string{"flow.yaml": controlFlowWorkflow}), env, "run", "flow")
	for _, line := range []string{"▶ poll (command) in each[1]/settle[0]", "✓ lint in checks success", "✓ each success"} {
		if !strings.Contains(text.stdout, line) {
			t.Errorf("console lacks %q:\n%s", line, text.stdout)
		}
	}
}

func TestFlowValidateReportsEveryMistake(t *testing.T) {
	dir := project(t, map[string]string{"bad.yaml": `name: bad
states:
  initial: each
  each:
    type: for_each
    items: '["a"]'
    body: [show, ghost]
    max_iterations: 20000
    on_complete: par
  show:
    type: command
    command: echo {{.loop.Item}}
    on_success: each
  par:
    type: parallel
    parallel: [show]
    strategy: fastest
    on_success: after
  after:
    type: command
    command: echo {{.loop.Index}}
    on_success: show
  done:
    type: terminal
`})
	r := awf(t, dir, []string{"HOME=" + t.TempDir()}, "validate", "bad")
	for _, want := range []string{
		"bad.yaml:7:18: error: body[1] of state \"each\" names unknown state \"ghost\" [USER.WORKFLOW.UNKNOWN_TARGET]",
		"bad.yaml:8:21: error: max_iterations of state \"each\" is 20000; it must be from 1 to 10000 [USER.WORKFLOW.MAX_ITERATIONS]",
		"bad.yaml:16:16: error: state \"show\" is already run by \"each\"",
		"bad.yaml:17:15: error: parallel state \"par\" has unknown strategy \"fastest\"",
		"bad.yaml:21:14: error: command of state \"after\" reads .loop.Index, but no loop runs this state [USER.TEMPLATE.LOOP_OUTSIDE]",
		"bad.yaml:22:17: error: on_success of state \"after\" enters \"show\", which only \"each\" runs [USER.WORKFLOW.MEMBER_ENTERED]",
	} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("validate output lacks %q", want)
		}
	}
	if r.code != 1 {
		t.Errorf("exit %d, want 1:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestInterruptStopsEveryBranch sends SIGINT while three branches sleep and checks in the
// process table that every branch's shell is gone and awf exits 130.
func TestInterruptStopsEveryBranch(t *testing.T) {
	branch := func(n string) string {
		return "  b" + n + ":\n    type: command\n    command: echo $$ > \"{{.env.PIDDIR}}/" + n + "\"; sleep 1000 & wait\n"
	}
	dir := project(t, map[string]string{"par.yaml": "name: par\nstates:\n  initial: par\n  par:\n    type: parallel\n    parallel: [b1, b2, b3]\n    on_success: done\n" +
		branch("1") + branch("2") + branch("3") + "  done:\n    type: terminal\n"})
	piddir := t.TempDir()
	cmd := exec.Command(awfBin, "run", "par")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIDDIR="+piddir, "HOME="+t.TempDir(), "TMPDIR="+t.TempDir())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPIDs(t, filepath.Join(piddir, "1"), filepath.Join(piddir, "2"), filepath.Join(piddir, "3"))
	interruptAndReap(t, cmd, &out, pids, "branch shell")
	if n := strings.Count(out.String(), "✗ b"); n != 3 {
		t.Errorf("%d branches reported stopped, want 3:\n%s", n, out.String())
	}
}
