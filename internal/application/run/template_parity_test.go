package run

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// parityCase is one template fed both to awf validate and to the renderer. ok says whether
// both must accept it: awf validate must reject every template the run would reject, and
// accept every template the run renders once the states it reads have run.
//
// Helpers adding namespaces or functions append rows here (and to parityScope/parityWorkflow
// when they need data).
type parityCase struct {
	name string
	text string
	ok   bool
}

// parityRows apply to both text templates (prompts, messages) and shell templates (commands).
var parityRows = []parityCase{
	// inputs
	{"input", "{{.inputs.target}}", true},
	{"input without the dot", "{{inputs.target}}", true},
	{"input through $", "{{$.inputs.target}}", true},
	{"undeclared input", "{{.inputs.nope}}", false},
	{"undeclared input without the dot", "{{inputs.nope}}", false},
	{"field of an input", "{{.inputs.target.x}}", false},
	{"field of an input without the dot", "{{inputs.target.x}}", false},
	{"whole inputs map", "{{.inputs}}", true},
	{"array input", "{{.inputs.files}}", true},
	{"len of an array input", "{{len .inputs.files}}", true},
	{"index of an array input", "{{index .inputs.files 0}}", true},
	{"range over an array input", "{{range .inputs.files}}{{.}}{{end}}", true},
	{"number input", "{{.inputs.ratio}}", true},
	{"boolean input in if", "{{if .inputs.flag}}y{{end}}", true},
	{"index of an input by name", `{{index .inputs "target"}}`, true},
	{"index of an undeclared input by name", `{{index .inputs "nope"}}`, false},
	// states
	{"state output", "{{.states.a.Output}}", true},
	{"state output lower case", "{{.states.a.output}}", true},
	{"state without the dot", "{{states.a.output}}", true},
	{"state without the dot, Go case", "{{states.a.ExitCode}}", true},
	{"state exit code", "{{.states.a.exit_code}}", true},
	{"state status and stderr", "{{.states.a.Status}} {{.states.a.stderr}}", true},
	{"unknown state", "{{.states.zz.Output}}", false},
	{"unknown state without the dot", "{{states.zz.Output}}", false},
	{"unknown field of a state", "{{.states.a.Nope}}", false},
	{"unknown field of a state without the dot", "{{states.a.nope}}", false},
	{"field of a field of a state", "{{.states.a.Output.x}}", false},
	{"whole state", "{{.states.a}}", true},
	{"index of a state field", `{{index .states.a "Output"}}`, true},
	{"index of an unknown state", `{{index .states "zz"}}`, false},
	{"with over a state", "{{with .states.a}}{{.Output}}{{end}}", true},
	{"with over a state, unknown field", "{{with .states.a}}{{.Nope}}{{end}}", false},
	{"with over a state, $ inside", "{{with .states.a}}{{$.inputs.target}}{{end}}", true},
	{"with over a state, $ to an undeclared input", "{{with .states.a}}{{$.inputs.nope}}{{end}}", false},
	// env and workflow
	{"env", "{{.env.HOME}}", true},
	{"env without the dot", "{{env.HOME}}", true},
	{"field of an env var", "{{.env.HOME.x}}", false},
	{"workflow id and name", "{{.workflow.ID}} {{.workflow.name}}", true},
	{"workflow without the dot", "{{workflow.id}}", true},
	{"unknown workflow field", "{{.workflow.Nope}}", false},
	// unknown namespaces and plain mistakes
	{"unknown namespace", "{{.nope.x}}", false},
	{"unknown namespace, Go case", "{{.Inputs.target}}", false},
	{"unknown bare word", "{{nope}}", false},
	{"unknown bare word with fields", "{{nope.x}}", false},
	{"unknown function in a pipeline", "{{.inputs.target | nope}}", false},
	{"unknown function with args", "{{nope .inputs.target}}", false},
	{"parse error", "{{.inputs.target", false},
	{"unclosed if", "{{if .inputs.flag}}x", false},
	{"undefined variable", "{{$x}}", false},
	{"declared variable", "{{$x := .inputs.target}}{{$x}}", true},
	{"field of a variable", "{{$s := .states.a}}{{$s.Output}}", true},
	// functions and pipelines
	{"printf", `{{printf "%s-%d" .inputs.target .inputs.count}}`, true},
	{"pipeline into printf", `{{.inputs.target | printf "%q"}}`, true},
	{"quote", "{{quote .inputs.target}}", true},
	{"pipeline into quote", "{{.states.a.Output | quote}}", true},
	{"raw", "{{raw .inputs.target}}", true},
	{"pipeline into raw", "{{.inputs.target | raw}}", true},
	{"raw without an argument", "{{raw}}", false},
	{"quote with two arguments", "{{quote .inputs.target .inputs.target}}", false},
	{"len of a string", "{{len .inputs.target}}", true},
	{"eq", "{{if eq .inputs.count 3}}y{{end}}", true},
	{"and/or/not", "{{if and .inputs.flag (not .inputs.flag)}}y{{end}}", true},
	{"comparison of unlike types", `{{if eq .inputs.target 3}}y{{end}}`, false},
	{"number input with an integer constant", "{{if lt .inputs.ratio 1}}y{{end}}", false},
	{"number input with a float constant", "{{if lt .inputs.ratio 1.0}}y{{end}}", true},
	{"number input with an exponent", "{{if lt .inputs.ratio 1e1}}y{{end}}", true},
	{"integer input with a hex constant", "{{if eq .inputs.count 0x3}}y{{end}}", true},
	{"integer input with a rune constant", "{{if eq .inputs.count 'a'}}y{{end}}", true},
	{"exit code compared with an integer", "{{if eq .states.a.ExitCode 0}}y{{end}}", true},
	{"exit code compared with text", `{{if eq .states.a.exit_code "0"}}y{{end}}`, false},
	{"ordered comparison of booleans", "{{if lt .inputs.flag true}}y{{end}}", false},
	{"eq of a list input", "{{if eq .inputs.files 1}}y{{end}}", false},
	{"piped comparison", "{{if .inputs.count | eq 3}}y{{end}}", true},
	{"call of data", "{{call .inputs.target}}", false},
	{"template of an undefined name", `{{template "x"}}`, false},
	{"parenthesised reference", "{{(.inputs.target)}}", true},
	{"parenthesised unknown", "{{(.inputs.nope)}}", false},
	{"namespace function with an argument", "{{inputs 1}}", false},
	{"unknown input in an if", "{{if .inputs.nope}}y{{end}}", false},
	{"unknown input in else", "{{if not .inputs.flag}}y{{else}}{{.inputs.nope}}{{end}}", false},
	{"unknown input in range", "{{range .inputs.nope}}y{{end}}", false},
	{"comment", "{{/* a comment */}}x", true},
	{"trim markers", "{{- .inputs.target -}}", true},
}

// parityWorkflow declares what the rows may read: inputs of every type and the states a and b.
func parityWorkflow(field, text string) *workflow.Workflow {
	use := &workflow.State{Name: "use", Type: workflow.StateCommand, Spec: &workflow.CommandSpec{Command: text}, OnSuccess: "done"}
	if field == "prompt" {
		use = &workflow.State{Name: "use", Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: "claude", Prompt: text}, OnSuccess: "done"}
	}
	return &workflow.Workflow{
		Name: "parity", File: "wf.yaml", Initial: "a",
		Inputs: []workflow.Input{
			{Name: "target", Type: workflow.InputString}, {Name: "count", Type: workflow.InputInteger},
			{Name: "ratio", Type: workflow.InputNumber}, {Name: "flag", Type: workflow.InputBoolean},
			{Name: "files", Type: workflow.InputArray},
		},
		Order: []string{"a", "b", "use", "done"},
		States: map[string]*workflow.State{
			"a":    {Name: "a", Type: workflow.StateCommand, Spec: &workflow.CommandSpec{Command: "true"}, OnSuccess: "b"},
			"b":    {Name: "b", Type: workflow.StateCommand, Spec: &workflow.CommandSpec{Command: "true"}, OnSuccess: "use"},
			"use":  use,
			"done": {Name: "done", Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusSuccess}},
		},
	}
}

// parityScope is the data of a run that reached "use": every input given, a and b ran.
func parityScope() Scope {
	sc := NewScope(map[string]any{
		"target": "t", "count": int64(3), "ratio": 0.5, "flag": true, "files": workflow.InputList{"x", "y"},
	}, map[string]string{"HOME": "/home/u"}, WorkflowInfo{ID: "run1", Name: "parity"})
	sc = sc.WithState("a", StateData{Output: "out", ExitCode: 0, Status: "success"})
	return sc.WithState("b", StateData{Output: "b", ExitCode: 1, Status: "failure"})
}

// templateErrors are the template diagnostics validate reports for the "use" state.
func templateErrors(wf *workflow.Workflow) []string {
	var out []string
	for _, d := range workflow.Validate(wf).Errors() {
		if strings.HasPrefix(d.Code, "USER.TEMPLATE.") {
			out = append(out, d.Code+": "+d.Message)
		}
	}
	return out
}

func TestValidateAndRunAgreeOnTemplates(t *testing.T) {
	for _, field := range []string{"command", "prompt"} {
		for _, tc := range parityRows {
			t.Run(field+"/"+tc.name, func(t *testing.T) {
				verrs := templateErrors(parityWorkflow(field, tc.text))
				var err error
				if field == "command" {
					_, err = renderShell("use", tc.text, parityScope(), fault.Position{})
				} else {
					_, err = render("use", tc.text, parityScope(), fault.Position{})
				}
				if validOK, runOK := len(verrs) == 0, err == nil; validOK != tc.ok || runOK != tc.ok {
					t.Errorf("%q: validate ok=%v %v; run ok=%v (%v); want both ok=%v", tc.text, validOK, verrs, runOK, err, tc.ok)
				}
			})
		}
	}
}

// textTemplateBuiltins are the functions Go's text/template defines itself.
var textTemplateBuiltins = []string{"and", "or", "not", "len", "index", "slice", "print", "printf", "println",
	"html", "js", "urlquery", "call", "eq", "ne", "lt", "le", "gt", "ge"}

// TestValidateKnowsTheRunnersFunctions keeps workflow.TemplateFuncs, which awf validate checks
// calls against, equal to what the runner offers: same names, same arities.
func TestValidateKnowsTheRunnersFunctions(t *testing.T) {
	for name, f := range Funcs {
		ar, ok := workflow.TemplateFuncs()[name]
		if !ok {
			t.Errorf("the runner offers %q, which workflow.TemplateFuncs does not list: awf validate would refuse it", name)
			continue
		}
		ft := reflect.TypeOf(f)
		want := workflow.Arity{Min: ft.NumIn(), Max: ft.NumIn()}
		if ft.IsVariadic() {
			want = workflow.Arity{Min: ft.NumIn() - 1, Max: -1}
		}
		if name == "index" {
			continue // overrides the builtin with its arity
		}
		if ar != want {
			t.Errorf("%s: workflow.TemplateFuncs says %+v, the runner's function takes %+v", name, ar, want)
		}
	}
	for name := range workflow.TemplateFuncs() {
		if _, ok := Funcs[name]; !ok && !slices.Contains(textTemplateBuiltins, name) {
			t.Errorf("workflow.TemplateFuncs lists %q, which the runner does not offer", name)
		}
	}
	for _, root := range workflow.TemplateRoots {
		if _, ok := namespaces(parityScope().Data())[root]; !ok {
			t.Errorf("namespace %q is not offered as a function", root)
		}
	}
}
