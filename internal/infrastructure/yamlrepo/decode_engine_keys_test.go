package yamlrepo

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// TestDecodeEngineKeys reads the workflow's timeout, a for_each's max_concurrent, a loop's
// on_exhausted and a command's env, in the order written.
func TestDecodeEngineKeys(t *testing.T) {
	w, ds := Parse("x.yaml", []byte(`name: x
timeout: 90s
states:
  initial: each
  each:
    type: for_each
    items: '["a"]'
    max_concurrent: 4
    body: [show]
    on_complete: done
    on_exhausted: done
  show:
    type: command
    command: echo "$B$A"
    env:
      B: '{{.loop.Item}}'
      A: plain
  done: {type: terminal}
`))
	if ds.HasErrors() {
		t.Fatalf("diagnostics: %v", ds)
	}
	ds = append(ds, workflow.Validate(w)...)
	if ds.HasErrors() {
		t.Fatalf("validate: %v", ds)
	}
	if w.Timeout != 90*time.Second {
		t.Errorf("timeout = %s", w.Timeout)
	}
	fe := w.States["each"].ForEach()
	if fe.MaxConcurrent != 4 || fe.OnExhausted != "done" {
		t.Errorf("for_each = %+v", fe)
	}
	env := w.States["show"].Command().Env
	if !reflect.DeepEqual(env, []workflow.EnvVar{{Name: "B", Value: "{{.loop.Item}}"}, {Name: "A", Value: "plain"}}) {
		t.Errorf("env = %+v", env)
	}
	if p := w.States["show"].ValueAt("env.A"); p.Line != 17 || p.Column != 10 {
		t.Errorf("env.A at %v", p)
	}
}

// TestValidateEngineKeys: each new key's mistakes are found by awf validate, at the value, with
// a code and a hint: before the run, not after the states before the loop ran.
func TestValidateEngineKeys(t *testing.T) {
	const head = "name: x\nstates:\n  initial: each\n"
	const tail = "  show: {type: command, command: echo}\n  done: {type: terminal}\n"
	tests := []struct {
		name, src, code, at, msg string
	}{
		{"items text that is no list", head + "  each: {type: for_each, items: 'a, b', body: [show], on_complete: done}\n" + tail,
			fault.UserWorkflowInvalidItems, "4:33", "neither a list nor a template"},
		{"items text that is a JSON object", head + "  each: {type: for_each, items: '{\"a\": 1}', body: [show], on_complete: done}\n" + tail,
			fault.UserWorkflowInvalidItems, "4:33", "neither a list nor a template"},
		{"items an integer input", "name: x\ninputs: [{name: n, type: integer}]\nstates:\n  initial: each\n  each: {type: for_each, items: '{{ .inputs.n }}', body: [show], on_complete: done}\n" + tail,
			fault.UserWorkflowInvalidItems, "5:33", `input "n", of type integer, which is never a list`},
		{"on_exhausted naming no state", head + "  each: {type: while, body: [show], on_exhausted: dnoe, on_complete: done}\n" + tail,
			fault.UserWorkflowUnknownTarget, "4:51", `on_exhausted of state "each" names unknown state "dnoe"`},
		{"max_concurrent zero", head + "  each: {type: for_each, items: [a], max_concurrent: 0, body: [show], on_complete: done}\n" + tail,
			fault.UserWorkflowInvalidConcurrency, "4:54", "must be from 1 to 64"},
		{"max_concurrent too high", head + "  each: {type: for_each, items: [a], max_concurrent: 1000, body: [show], on_complete: done}\n" + tail,
			fault.UserWorkflowInvalidConcurrency, "4:54", "must be from 1 to 64"},
		{"workflow timeout zero", "name: x\ntimeout: 0\nstates:\n  initial: show\n  show: {type: command, command: echo, on_success: done}\n  done: {type: terminal}\n",
			fault.UserWorkflowInvalidTimeout, "2:10", "timeout must be positive"},
		{"workflow timeout no duration", "name: x\ntimeout: soon\nstates:\n  initial: show\n  show: {type: command, command: echo, on_success: done}\n  done: {type: terminal}\n",
			fault.UserWorkflowInvalidTimeout, "2:10", "not a duration"},
		{"env name not a variable", head + "  each: {type: for_each, items: [a], body: [show], on_complete: done}\n  show: {type: command, command: echo, env: {A-B: x}}\n  done: {type: terminal}\n",
			fault.UserEnvInvalidName, "5:51", "not an environment variable name"},
		{"env name awf reserves", head + "  each: {type: for_each, items: [a], body: [show], on_complete: done}\n  show: {type: command, command: echo, env: {AWF_V_1: x}}\n  done: {type: terminal}\n",
			fault.UserEnvInvalidName, "5:55", "a name awf reserves"},
		{"env value an unknown input", head + "  each: {type: for_each, items: [a], body: [show], on_complete: done}\n  show: {type: command, command: echo, env: {A: '{{.inputs.nope}}'}}\n  done: {type: terminal}\n",
			fault.UserTemplateUnknownInput, "5:49", "nope"},
		{"env not a mapping", head + "  each: {type: for_each, items: [a], body: [show], on_complete: done}\n  show: {type: command, command: echo, env: [A]}\n  done: {type: terminal}\n",
			"", "5:45", "env must be a mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, ds := Parse("x.yaml", []byte(tt.src))
			if !ds.HasErrors() {
				ds = append(ds, workflow.Validate(w)...)
			}
			var found []string
			for _, d := range ds.Errors() {
				at := strings.TrimPrefix(d.Position.String(), "x.yaml:")
				found = append(found, d.Code+"@"+at+": "+d.Message)
				if (tt.code == "" || d.Code == tt.code) && at == tt.at && strings.Contains(d.Message, tt.msg) && d.Hint != "" {
					return
				}
			}
			t.Errorf("want %s@%s %q; got %q", tt.code, tt.at, tt.msg, found)
		})
	}
}

// TestItemsOfListInputsValidate: items that are an array or string input, or a template
// computing text, pass awf validate: only the run can tell what they hold.
func TestItemsOfListInputsValidate(t *testing.T) {
	for _, typ := range []string{"array", "string"} {
		w, ds := Parse("x.yaml", []byte("name: x\ninputs: [{name: n, type: "+typ+"}]\nstates:\n  initial: each\n"+
			"  each: {type: for_each, items: '{{.inputs.n}}', body: [show], on_complete: done}\n  show: {type: command, command: echo}\n  done: {type: terminal}\n"))
		ds = append(ds, workflow.Validate(w)...)
		if ds.HasErrors() {
			t.Errorf("items of a %s input: %v", typ, ds)
		}
	}
}
