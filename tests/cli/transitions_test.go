package cli_test

import (
	"strings"
	"testing"
)

// routeWorkflow routes on a command's exit code and output with `transitions`, in both of the
// reference's spellings; "loud" is reachable only through a transition.
const routeWorkflow = `name: route
inputs:
  - name: code
    type: integer
    default: 0
states:
  initial: probe
  probe:
    type: command
    command: echo hello; exit {{.inputs.code}}
    transitions:
      - when: 'states.probe.exit_code == 3'
        goto: three
      - when: 'states.probe.ExitCode == 0 && contains(states.probe.Output, "hell")'
        goto: loud
    on_success: quiet
    on_failure: other
  loud:
    type: command
    command: echo LOUD
    on_success: done
  quiet:
    type: command
    command: echo quiet
    on_success: done
  three:
    type: terminal
    status: failure
    message: exit three
  other:
    type: terminal
    status: failure
  done:
    type: terminal
`

func TestTransitionsRouteTheRun(t *testing.T) {
	dir := project(t, map[string]string{"route.yaml": routeWorkflow})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "run", "route")
	if r.code != 0 || !strings.Contains(r.stdout, "→ loud") || !strings.Contains(r.stdout, "LOUD") {
		t.Fatalf("code 0 should go to loud: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = awf(t, dir, env, "run", "route", "-i", "code=3")
	if r.code != 2 || !strings.Contains(r.stdout, "→ three") || !strings.Contains(r.stdout+r.stderr, "exit three") {
		t.Fatalf("exit 3 should go to three: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = awf(t, dir, env, "run", "route", "-i", "code=4")
	if r.code != 2 || !strings.Contains(r.stdout, "→ other") {
		t.Fatalf("exit 4 matches no transition and follows on_failure: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := awf(t, dir, env, "validate", "route"); r.code != 0 || strings.Contains(r.stderr, "UNREACHABLE") {
		t.Fatalf("valid, with loud reachable through a transition: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestValidateCompilesEveryExpression(t *testing.T) {
	dir := project(t, map[string]string{"bad.yaml": `name: bad
states:
  initial: a
  a:
    type: command
    command: "true"
    transitions:
      - when: 'states.a.ExitCode =='
        goto: done
      - when: 'states.nope.ExitCode == 0'
        goto: done
      - when: 'input.x == 1'
        goto: done
      - when: 'inputs.missing > 2'
        goto: done
    on_success: done
  done:
    type: terminal
`})
	r := awf(t, dir, nil, "validate", "bad")
	out := r.stdout + r.stderr
	for _, want := range []string{
		"bad.yaml:8:15: error: transitions[0].when of state \"a\" does not compile",
		"bad.yaml:10:15: error: transitions[1].when of state \"a\" reads state \"nope\"",
		"bad.yaml:12:15: error: transitions[2].when of state \"a\" does not compile: line 1, column 1: unknown name input",
		"bad.yaml:14:15: error: transitions[3].when of state \"a\" reads input \"missing\"",
		"USER.EXPR.INVALID", "USER.EXPR.UNKNOWN_REFERENCE",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
}

// TestRetryThroughTheBinary: a command failing twice succeeds on its third attempt; each retry
// shows on the terminal and in the JSON summary.
func TestRetryThroughTheBinary(t *testing.T) {
	dir := project(t, map[string]string{"flaky.yaml": `name: flaky
states:
  initial: a
  a:
    type: command
    command: 'n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; test $n -ge 3'
    retry: {max_attempts: 3, initial_delay: 10ms, backoff: linear}
    on_success: done
  done:
    type: terminal
`})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	r := awf(t, dir, env, "run", "flaky")
	if r.code != 0 || !contains(r.stdout, "↻ a attempt 1 of 3 failed: exit code 1; again in 10ms", "↻ a attempt 2 of 3 failed: exit code 1; again in 20ms", "✓ a success", "after 3 attempts") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
