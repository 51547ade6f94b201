package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

const flowWorkflow = `name: flow
inputs:
  - name: mode
    type: string
    default: ok
  - name: count
    type: integer
    required: true
states:
  initial: first
  first:
    type: command
    command: echo "count={{.inputs.count}}"; echo note >&2
    on_success: branch
    on_failure: bad
  branch:
    type: command
    command: test "{{.inputs.mode}}" = ok
    on_success: good
    on_failure: slow
  slow:
    type: command
    command: sleep 30
    timeout: 200ms
    on_success: good
    on_failure: report
  report:
    type: command
    command: echo "slow exited {{.states.slow.ExitCode}}, first said {{.states.first.Output}}"
    on_success: bad
    on_failure: bad
  good:
    type: terminal
  bad:
    type: terminal
    status: failure
`

const agentWorkflow = `name: agent
states:
  initial: ask
  ask:
    type: agent
    provider: claude
    prompt: say hi
    on_success: done
    on_failure: failed
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`

func TestRun(t *testing.T) {
	dir := project(t, map[string]string{"flow.yaml": flowWorkflow, "agent.yaml": agentWorkflow})
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string
		notWant  []string
	}{
		{"success path", []string{"run", "flow", "--input", "count=3"}, 0,
			[]string{"▶ first (command)", "✓ first success", "→ branch", "Workflow 'flow' succeeded"}, []string{"slow"}},
		{"failure branch with timeout", []string{"run", "flow", "-i", "count=3", "-i", "mode=other"}, 2,
			[]string{"✗ slow failure", "timed out after 200ms", "→ report", "WORKFLOW.RUN.FAILED", "failure state \"bad\""}, nil},
		{"missing input", []string{"run", "flow"}, 1, []string{"USER.INPUT.MISSING", "count", "--input count=<integer>"}, []string{"▶"}},
		{"wrong input type", []string{"run", "flow", "--input", "count=many"}, 1, []string{"USER.INPUT.INVALID_VALUE", "must be an integer"}, []string{"▶"}},
		{"unknown input", []string{"run", "flow", "--input", "count=1", "--input", "mdoe=x"}, 1, []string{"USER.INPUT.UNKNOWN", "did you mean 'mode'"}, []string{"▶"}},
		{"malformed input flag", []string{"run", "flow", "--input", "count"}, 1, []string{"USER.INPUT.SYNTAX"}, nil},
		{"missing workflow", []string{"run", "nope"}, 1, []string{"USER.WORKFLOW.NOT_FOUND"}, nil},
		{"agent CLI missing fails the step clearly", []string{"run", "agent"}, 2, []string{"EXECUTION.AGENT.CLI_NOT_FOUND", "npm install -g @anthropic-ai/claude-code", "→ failed"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := awf(t, dir, []string{"PATH=/usr/bin:/bin"}, tc.args...)
			all := r.stdout + r.stderr
			if r.code != tc.wantCode {
				t.Fatalf("exit %d, want %d\n%s", r.code, tc.wantCode, all)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(all, w) {
					t.Errorf("output has %q:\n%s", w, all)
				}
			}
		})
	}
}

func TestRunJSONSummary(t *testing.T) {
	dir := project(t, map[string]string{"flow.yaml": flowWorkflow})
	r := awf(t, dir, nil, "run", "flow", "--format", "json", "--input", "count=7")
	if r.code != 0 {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	var doc struct {
		RunID    string `json:"run_id"`
		Status   string `json:"status"`
		Terminal string `json:"terminal"`
		ExitCode int    `json:"exit_code"`
		Steps    []struct {
			Name, Status, Output, Stderr, Next string
			ExitCode                           int `json:"exit_code"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if doc.Status != "success" || doc.Terminal != "good" || doc.RunID == "" || len(doc.Steps) != 2 {
		t.Fatalf("summary: %+v", doc)
	}
	if s := doc.Steps[0]; s.Name != "first" || s.Output != "count=7" || s.Stderr != "note\n" || s.Next != "branch" {
		t.Fatalf("first step: %+v", s)
	}
}
