package workflow

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// withState replaces the "build" state of the base workflow with s (keeping its transitions).
func withState(w *Workflow, s *State) {
	s.Name, s.OnSuccess, s.OnFailure, s.Pos = "build", "ask", "failed", p(5, 3)
	w.States["build"] = s
}

func TestCallAndOperationValidation(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(w *Workflow)
		want   []diag
	}{
		{"a valid call", func(w *Workflow) {
			withState(w, &State{Type: StateCallWorkflow, Spec: &CallSpec{Workflow: "child", Inputs: map[string]string{"m": "{{.inputs.target}}"}, InputOrder: []string{"m"},
				Outputs: map[string]string{"result": "r"}, OutputOrder: []string{"result"}}})
		}, nil},
		{"a call without workflow", func(w *Workflow) { withState(w, &State{Type: StateCallWorkflow, Spec: &CallSpec{}}) },
			[]diag{{"USER.CALL.MISSING_WORKFLOW@5:3", `call_workflow state "build" has no workflow`, "add `workflow:"}}},
		{"a call with an empty workflow", func(w *Workflow) {
			s := &State{Type: StateCallWorkflow, Spec: &CallSpec{Workflow: " "}}
			wrote(s, "workflow", p(6, 5), p(6, 15))
			withState(w, s)
		}, []diag{{"USER.CALL.MISSING_WORKFLOW@6:15", `workflow of state "build" is empty`, ""}}},
		{"an output mapped to nothing", func(w *Workflow) {
			s := &State{Type: StateCallWorkflow, Spec: &CallSpec{Workflow: "c", Outputs: map[string]string{"x": ""}, OutputOrder: []string{"x"}}}
			wrote(s, "outputs.x", p(8, 7), p(8, 10))
			withState(w, s)
		}, []diag{{"USER.CALL.INVALID_OUTPUT@8:10", `outputs.x of state "build" maps to an empty name`, "`x: x`"}}},
		{"a call input template reading an unknown input", func(w *Workflow) {
			s := &State{Type: StateCallWorkflow, Spec: &CallSpec{Workflow: "c", Inputs: map[string]string{"m": "{{.inputs.taget}}"}, InputOrder: []string{"m"}}}
			wrote(s, "inputs.m", p(7, 7), p(7, 10))
			withState(w, s)
		}, []diag{{"USER.TEMPLATE.UNKNOWN_INPUT@7:10", `inputs.m of state "build" refers to undeclared input "taget"`, "did you mean 'target'?"}}},
		{"a valid operation", func(w *Workflow) {
			withState(w, &State{Type: StateOperation, Spec: &OperationSpec{Operation: "http.request", Inputs: map[string]any{"url": "{{.inputs.target}}", "timeout": 3,
				"headers": map[string]any{"A": "{{.env.HOME}}"}, "codes": []any{503, "{{.inputs.target}}"}}}})
		}, nil},
		{"an operation without name", func(w *Workflow) { withState(w, &State{Type: StateOperation, Spec: &OperationSpec{}}) },
			[]diag{{"USER.OPERATION.MISSING@5:3", `operation state "build" has no operation`, "http.request"}}},
		{"templates deep in operation inputs are checked", func(w *Workflow) {
			s := &State{Type: StateOperation, Spec: &OperationSpec{Operation: "x.y", Inputs: map[string]any{"h": map[string]any{"A": "{{.states.nope.Output}}"}, "l": []any{"{{.inputs.nope}}"}}}}
			wrote(s, "inputs.h.A", p(9, 9), p(9, 12))
			withState(w, s)
		}, []diag{{"USER.TEMPLATE.UNKNOWN_INPUT@5:3", `inputs.l[0] of state "build" refers to undeclared input "nope"`, ""},
			{"USER.TEMPLATE.UNKNOWN_STATE@9:12", `inputs.h.A of state "build" refers to unknown state "nope"`, ""}}},
		{"operation keys on a command", func(w *Workflow) {
			wrote(w.States["build"], "operation", p(6, 5), p(6, 16))
		}, []diag{{"USER.WORKFLOW.KEY_NOT_ALLOWED@6:5", `key "operation" is not valid for command states`, "change `type:` to operation"}}},
		{"Response may be read deeper", func(w *Workflow) {
			w.States["ask"].Agent().Prompt = "{{.states.build.Response.status_code}} {{.states.build.response.headers.x}}"
		}, nil},
		{"Output may not", func(w *Workflow) { w.States["ask"].Agent().Prompt = "{{.states.build.Output.x}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_FIELD@9:3", `reads field "x" of .states.build.Output`, ""}}},
		{"declared outputs", func(w *Workflow) {
			w.Outputs = []Output{{Name: "a", From: "states.build.Output"}, {Name: "b", From: "{{.states.ask.Output}}-{{.inputs.target}}"}}
		}, nil},
		{"bad outputs", func(w *Workflow) {
			w.Outputs = []Output{{Name: "", From: "states.build.Output"}, {Name: "a", From: ""}, {Name: "a", From: "states.biuld.Output"}, {Name: "c", From: "{{"}}
			wroteTop(w, "outputs[0]", p(20, 3), p(20, 5))
			wroteTop(w, "outputs[1]", p(22, 3), p(22, 5))
			wroteTop(w, "outputs[2].name", p(24, 5), p(24, 11))
			wroteTop(w, "outputs[2].from", p(25, 5), p(25, 11))
			wroteTop(w, "outputs[3].from", p(27, 5), p(27, 11))
		}, []diag{
			{"USER.WORKFLOW.INVALID_OUTPUT@20:5", "output #1 has no name", "add `name:"},
			{"USER.WORKFLOW.INVALID_OUTPUT@22:5", `output "a" has no from`, ""},
			{"USER.WORKFLOW.INVALID_OUTPUT@24:11", `output "a" is declared twice`, ""},
			{"USER.TEMPLATE.UNKNOWN_STATE@25:11", `from of output "a" refers to unknown state "biuld"`, "did you mean 'build'?"},
			{"USER.TEMPLATE.SYNTAX@27:11", `from of output "c" is not a valid reference`, ""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := build()
			tt.mutate(w)
			expectDiags(t, Validate(w), tt.want)
		})
	}
}

func TestCallHelpers(t *testing.T) {
	if got := (Output{From: ".states.a.Output"}).Template(); got != "{{.states.a.Output}}" {
		t.Errorf("Template = %q", got)
	}
	if got := (Output{From: " {{.inputs.x}} "}).Template(); got != "{{.inputs.x}}" {
		t.Errorf("Template = %q", got)
	}
	err := CallDepthError("s", []string{"a", "b"})
	if fault.CodeOf(err) != fault.ExecutionCallDepth || !strings.Contains(err.Error(), "a → b") {
		t.Errorf("%v", err)
	}
	if err := CallCycleError("s", []string{"a", "a"}); fault.CodeOf(err) != fault.ExecutionCallCycle || !strings.Contains(err.Error(), "a → a") {
		t.Errorf("%v", err)
	}
	s := &State{Type: StateOperation}
	if s.Operation() == nil || s.Call() != nil {
		t.Error("accessors")
	}
	var paths []string
	walkStrings("in", map[string]any{"b": []any{"x", 1, map[string]any{"c": "y"}}, "a": "z", "n": 3}, func(p, _ string) { paths = append(paths, p) })
	if strings.Join(paths, ",") != "in.a,in.b[0],in.b[2].c" {
		t.Errorf("paths %v", paths)
	}
}
