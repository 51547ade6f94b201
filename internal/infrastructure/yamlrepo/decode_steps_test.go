package yamlrepo

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestDecodeStepKeys(t *testing.T) {
	src := `name: x
hooks:
  workflow_start:
    - log: "start {{.workflow.name}}"
  workflow_error:
    - command: echo {{.error.message}}
states:
  initial: a
  a:
    type: step
    script_file: scripts/a.sh
    continue_on_error: true
    capture: {stdout: out, max_size: 1MB}
    hooks:
      pre:
        - command: echo pre
      post:
        - log: done
    on_success: b
    on_failure: {message: "a failed: {{.states.a.ExitCode}}", status: 3}
  b:
    type: agent
    provider: claude
    prompt: hi
    system_prompt: be brief
    output_format: json
    mode: single
    on_success: d
  d: {type: terminal}
`
	w, ds := Parse("x.yaml", []byte(src))
	if ds.HasErrors() {
		t.Fatalf("diagnostics: %v", ds)
	}
	if got := w.Hooks; len(got.Start) != 1 || got.Start[0].Log != "start {{.workflow.name}}" || got.Start[0].LogPos.Line != 4 ||
		len(got.Error) != 1 || got.Error[0].Command != "echo {{.error.message}}" || got.Error[0].CommandPos.Column != 16 {
		t.Errorf("workflow hooks %+v", got)
	}
	a := w.States["a"]
	c := a.Command()
	if c.ScriptFile != "scripts/a.sh" || !c.ContinueOnError || !reflect.DeepEqual(c.Capture, &workflow.Capture{Stdout: "out", MaxSize: "1MB"}) {
		t.Errorf("command spec %+v", c)
	}
	if len(a.Hooks.Pre) != 1 || a.Hooks.Pre[0].Command != "echo pre" || a.Hooks.Pre[0].Keys != 1 || len(a.Hooks.Post) != 1 || a.Hooks.Post[0].Pos.Line != 18 {
		t.Errorf("step hooks %+v", a.Hooks)
	}
	hidden := w.States[a.OnFailure]
	if a.OnFailure != "__inline_error_a" || hidden == nil || hidden.Terminal().Status != workflow.StatusFailure ||
		hidden.Terminal().Message != "a failed: {{.states.a.ExitCode}}" || hidden.Pos.Line != 20 || hidden.KeyAt("message").Line != 20 {
		t.Fatalf("inline on_failure: %q → %+v", a.OnFailure, hidden)
	}
	for _, n := range w.Order {
		if n == a.OnFailure {
			t.Error("the hidden terminal is listed in Order")
		}
	}
	b := w.States["b"].Agent()
	if b.SystemPrompt != "be brief" || b.OutputFormat != "json" || b.Mode != "single" || b.Conversation != nil {
		t.Errorf("agent spec %+v", b)
	}
	if vds := workflow.Validate(w); vds.HasErrors() {
		t.Errorf("validate: %v", vds)
	}
}

func TestDecodeStepKeyErrors(t *testing.T) {
	tests := []struct{ name, state, top, want string }{
		{"a misspelt hook", "    hooks: {pre: [{log: x}], psot: []}\n", "", `7:30: unknown key "psot" in step hooks; did you mean 'post'?`},
		{"a misspelt workflow hook", "", "hooks:\n  workflow_stat: []\n", `3:3: unknown key "workflow_stat" in workflow hooks; did you mean 'workflow_start'?`},
		{"a hook entry key", "    hooks: {pre: [{run: x}]}\n", "", `7:20: unknown key "run" in a hook entry`},
		{"an empty hook entry", "    hooks: {pre: [{}]}\n", "", `7:19: state "a" hook pre[0] must have exactly one of log and command`},
		{"a hook list that is not a list", "    hooks: {post: {log: x}}\n", "", `7:19: hooks.post must be a list`},
		{"a capture key", "    capture: {stdot: x}\n", "", `7:15: unknown key "stdot" in capture; did you mean 'stdout'?`},
		{"continue_on_error not a bool", "    continue_on_error: yes please\n", "", `7:24: continue_on_error must be true or false`},
		{"an inline on_failure key", "    on_failure: {mesage: x}\n", "", `7:18: unknown key "mesage" in an inline on_failure; did you mean 'message'?`},
		{"an inline on_failure status", "    on_failure: {message: x, status: bad}\n", "", `7:38: on_failure.status must be an exit code or failure`},
		{"a removed conversation key", "    conversation: {max_turns: 3}\n", "", `8:20: unknown key "max_turns" in conversation`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kind := "type: step\n    command: ls\n"
			if strings.Contains(tc.state, "conversation") {
				kind = "type: agent\n    provider: claude\n    prompt: p\n"
			}
			src := "name: x\n" + tc.top + "states:\n  initial: a\n  a:\n    " + kind + tc.state + "    on_success: d\n  d: {type: terminal}\n"
			_, ds := Parse("x.yaml", []byte(src))
			var got []string
			for _, d := range ds.Errors() {
				got = append(got, fmt.Sprintf("%d:%d: %s; %s", d.Line, d.Column, d.Message, d.Hint))
			}
			found := false
			for _, g := range got {
				found = found || strings.HasPrefix(g, tc.want)
			}
			if !found || tc.name == "a hook entry key" && len(got) != 1 {
				t.Errorf("diagnostics:\n%s\nsource:\n%s\nwant: %s", strings.Join(got, "\n"), src, tc.want)
			}
		})
	}
}
