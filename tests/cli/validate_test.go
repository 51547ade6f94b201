package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

const brokenWorkflow = `name: broken
states:
  initial: start
  start:
    type: command
    command: echo {{.inputs.missing}}
    on_sucess: done
  done:
    type: terminal
`

func TestValidate(t *testing.T) {
	dir := project(t, map[string]string{"broken.yaml": brokenWorkflow})
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  []string // substrings of stdout+stderr
	}{
		{"valid by path", []string{"validate", repoRoot(t) + "/examples/workflows/hello.yaml"}, 0, []string{"Workflow 'hello' is valid"}},
		{"invalid reports every error with position", []string{"validate", "broken"}, 1, []string{
			".awf/workflows/broken.yaml:7:5", "USER.WORKFLOW.UNKNOWN_KEY", "did you mean 'on_success'",
			".awf/workflows/broken.yaml:6:", "USER.TEMPLATE.UNKNOWN_INPUT",
		}},
		{"missing workflow", []string{"validate", "nope"}, 1, []string{"USER.WORKFLOW.NOT_FOUND", "broken"}},
		{"bad format flag", []string{"validate", "--format", "xml", "broken"}, 1, []string{"USER.CLI.INVALID_FORMAT"}},
		{"unknown flag", []string{"validate", "--nope", "broken"}, 1, []string{"unknown flag"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := awf(t, dir, nil, tc.args...)
			if r.code != tc.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tc.wantCode, r.stdout, r.stderr)
			}
			all := r.stdout + r.stderr
			for _, w := range tc.wantOut {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
		})
	}
}

func TestValidateJSON(t *testing.T) {
	dir := project(t, map[string]string{"broken.yaml": brokenWorkflow})
	r := awf(t, dir, nil, "validate", "--format", "json", "broken")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1: %s %s", r.code, r.stdout, r.stderr)
	}
	var doc struct {
		Valid    bool   `json:"valid"`
		Workflow string `json:"workflow"`
		Errors   []struct {
			Code, Message, File, Hint string
			Line, Column              int
		} `json:"errors"`
		Warnings []json.RawMessage `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, r.stdout)
	}
	if doc.Valid || doc.Workflow != "broken" || len(doc.Errors) < 2 || doc.Warnings == nil {
		t.Fatalf("unexpected document: %+v", doc)
	}
	var found bool
	for _, e := range doc.Errors {
		if e.Code == "USER.WORKFLOW.UNKNOWN_KEY" {
			found = e.Line == 7 && e.Column == 5 && strings.Contains(e.Hint, "on_success") && strings.HasSuffix(e.File, "broken.yaml")
		}
	}
	if !found {
		t.Fatalf("UNKNOWN_KEY at 7:5 with hint missing: %+v", doc.Errors)
	}
	ok := awf(t, dir, nil, "validate", "--format", "json", repoRoot(t)+"/examples/workflows/hello.yaml")
	if ok.code != 0 || !strings.Contains(ok.stdout, `"valid": true`) {
		t.Fatalf("valid workflow: exit %d %s", ok.code, ok.stdout)
	}
}
