package workflow

import (
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

func TestShellAndReservedNames(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(w *Workflow)
		want   []string
	}{
		{"bash", func(w *Workflow) { w.Shell = "/bin/bash" }, []string{}},
		{"dash by name", func(w *Workflow) { w.Shell = "dash" }, []string{}},
		{"python is no shell", func(w *Workflow) { w.Shell = "/usr/bin/python3" }, []string{fault.UserWorkflowShell}},
		{"a written empty shell", func(w *Workflow) { w.Pos = map[string]fault.Position{"shell": {Line: 2}} }, []string{fault.UserWorkflowShell}},
		{"a shell with arguments", func(w *Workflow) { w.Shell = "bash -e" }, []string{fault.UserWorkflowShell}},
		{"a step's shell", func(w *Workflow) {
			w.States["build"].Command().Shell = "node"
			w.States["build"].KeyPos = map[string]fault.Position{"shell": {Line: 6}}
		}, []string{fault.UserWorkflowShell}},
		{"awf's value variables", func(w *Workflow) { w.Env = []string{"AWF_V_1"} }, []string{fault.UserEnvInvalidName}},
		{"awf's input variables", func(w *Workflow) { w.Env = []string{"AWF_INPUT_X"} }, []string{fault.UserEnvInvalidName}},
		{"a near name is fine", func(w *Workflow) { w.Env = []string{"AWF_VERSION"} }, []string{}},
	}
	for _, tt := range tests {
		w := build()
		tt.mutate(w)
		if got := codes(Validate(w).Errors()); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: codes %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestApplyShell(t *testing.T) {
	w := build()
	w.Shell = "/bin/bash"
	w.Hooks.Start = Hook{{Command: "a"}}
	w.States["build"].Hooks.Pre = Hook{{Command: "b"}}
	w.States["ask"].Hooks.Post = Hook{{Command: "c", Shell: "/bin/dash"}}
	other := &State{Name: "x", Type: StateCommand, Spec: &CommandSpec{Command: "x", Shell: "/bin/dash"}}
	other.Hooks.Pre = Hook{{Command: "d"}}
	w.States["x"] = other
	w.ApplyShell()
	got := []string{w.Hooks.Start[0].Shell, w.States["build"].Command().Shell, w.States["build"].Hooks.Pre[0].Shell,
		w.States["ask"].Hooks.Post[0].Shell, other.Command().Shell, other.Hooks.Pre[0].Shell}
	want := []string{"/bin/bash", "/bin/bash", "/bin/bash", "/bin/dash", "/bin/dash", "/bin/dash"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("shells %v, want %v", got, want)
	}
}

func TestInputEnvNameAndIsTemplated(t *testing.T) {
	for in, want := range map[string]string{"who": "AWF_INPUT_WHO", "dry-run": "AWF_INPUT_DRY_RUN", "a.b c": "AWF_INPUT_A_B_C", "x1": "AWF_INPUT_X1"} {
		if got := InputEnvName(in); got != want {
			t.Errorf("InputEnvName(%q) = %q, want %q", in, got, want)
		}
	}
	for script, want := range map[string]bool{
		"print(f'{{x}}')": false, "{% if a %}{{ value }}{% endif %}": false, "no braces": false,
		"print('{{.inputs.x}}')": true, "x = '{{ inputs.x }}'": true, "{{- .env.HOME}}": true, "{{json .inputs.l}}": true,
		"{{if .inputs.x}}y{{end}}": true, "{{$x := 1}}": true,
	} {
		if got := IsTemplated(script); got != want {
			t.Errorf("IsTemplated(%q) = %v, want %v", script, got, want)
		}
	}
}
