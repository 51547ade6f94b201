package run

import (
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/application/tmplfuncs"
	"github.com/awf-dev/awf/internal/domain/fault"
)

func renderIn(t *testing.T, s Scope, text string) (string, error) {
	t.Helper()
	return render("test", text, s, fault.Position{})
}

func TestScopeIsImmutable(t *testing.T) {
	inputs := map[string]any{"n": int64(1)}
	env := map[string]string{"HOME": "/h"}
	root := NewScope(inputs, env, WorkflowInfo{ID: "r1", Name: "wf"})
	inputs["n"], env["HOME"] = int64(2), "/changed"
	if got, _ := renderIn(t, root, "{{.inputs.n}} {{.env.HOME}} {{.workflow.ID}} {{.workflow.Name}}"); got != "1 /h r1 wf" {
		t.Fatalf("the scope follows its caller's maps: %q", got)
	}

	a := root.WithState("a", StateData{Output: "one", ExitCode: 0, Status: "success"})
	b := a.WithState("a", StateData{Output: "two", Stderr: "e", ExitCode: 3, Status: "failure"})
	if _, ok := root.State("a"); ok {
		t.Error("recording a state changed the scope it was recorded on")
	}
	if d, _ := a.State("a"); d.Output != "one" {
		t.Errorf("a later record changed an earlier scope: %+v", d)
	}
	if got, _ := renderIn(t, b, "{{.states.a.Output}} {{.states.a.Stderr}} {{.states.a.ExitCode}} {{.states.a.Status}}"); got != "two e 3 failure" {
		t.Errorf("render = %q", got)
	}

	data := b.Data()
	data["inputs"].(map[string]any)["n"] = "hacked"
	data["env"].(map[string]string)["HOME"] = "hacked"
	data["states"].(map[string]any)["a"] = "hacked"
	if got, _ := renderIn(t, b, "{{.inputs.n}} {{.env.HOME}} {{.states.a.Output}}"); got != "1 /h two" {
		t.Errorf("changing Data changed the scope: %q", got)
	}
}

func TestForkedScopes(t *testing.T) {
	parent := NewScope(map[string]any{"n": 1}, nil, WorkflowInfo{Name: "wf"}).WithState("build", StateData{Output: "built"})
	left := parent.Fork().WithState("item", StateData{Output: "left"})
	right := parent.Fork().WithState("item", StateData{Output: "right"}).WithState("build", StateData{Output: "rebuilt"})

	tests := []struct {
		name  string
		scope Scope
		text  string
		want  string
		fails bool
	}{
		{"a child sees its parent", left, "{{.states.build.Output}} {{.inputs.n}} {{.workflow.Name}}", "built 1 wf", false},
		{"a child sees its own writes", left, "{{.states.item.Output}}", "left", false},
		{"a sibling's write stays in the sibling", right, "{{.states.item.Output}}", "right", false},
		{"a child's write shadows the parent in the child", right, "{{.states.build.Output}}", "rebuilt", false},
		{"the parent never sees a child's write", parent, "{{.states.item.Output}}", "", true},
		{"nor a child's shadowing", parent, "{{.states.build.Output}}", "built", false},
		{"a grandchild sees every ancestor", right.Fork().WithState("deep", StateData{Output: "d"}), "{{.states.build.Output}} {{.states.item.Output}} {{.states.deep.Output}}", "rebuilt right d", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := renderIn(t, tc.scope, tc.text)
			if tc.fails {
				if fault.CodeOf(err) != fault.UserTemplateExec {
					t.Fatalf("render = %q, %v; want a template error", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("render = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if d, ok := left.State("build"); !ok || d.Output != "built" {
		t.Errorf("State through a fork = %+v, %v", d, ok)
	}
	if _, ok := left.State("nothing"); ok {
		t.Error("State of a name never recorded")
	}
	states := right.Fork().Data()["states"].(map[string]any)
	if want := map[string]any{"build": StateData{Output: "rebuilt"}.Fields(), "item": StateData{Output: "right"}.Fields()}; !reflect.DeepEqual(states, want) {
		t.Errorf("states = %#v", states)
	}
}

func TestRender(t *testing.T) {
	s := NewScope(map[string]any{"who": "it's"}, nil, WorkflowInfo{})
	pos := fault.Position{File: "f.yaml", Line: 3, Column: 9}
	tests := []struct {
		text, want, code string
	}{
		{"plain {{ text", "plain {{ text", fault.UserTemplateSyntax},
		{"no action", "no action", ""},
		{"echo {{quote .inputs.who}}", `echo 'it'\''s'`, ""},
		{"{{.inputs.nobody}}", "", fault.UserTemplateExec},
		{"{{nofunc}}", "", fault.UserTemplateSyntax},
	}
	for _, tc := range tests {
		got, err := render("x.command", tc.text, s, pos)
		if fault.CodeOf(err) != tc.code || (tc.code == "" && got != tc.want) {
			t.Errorf("render(%q) = %q, %v", tc.text, got, err)
		}
		if err != nil {
			if fe := err.(*fault.Error); fe.Pos != pos {
				t.Errorf("render(%q) error at %v, want %v", tc.text, fe.Pos, pos)
			}
		}
	}
	if tmplfuncs.ShellQuote("") != "''" || tmplfuncs.ShellQuote("a b") != "'a b'" {
		t.Error("ShellQuote")
	}
}
