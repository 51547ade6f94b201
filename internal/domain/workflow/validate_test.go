package workflow

import (
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// build returns a valid workflow built in code: build → done, with one input. Tests break it
// one way at a time.
func build() *Workflow {
	return &Workflow{
		Name:    "wf",
		File:    "wf.yaml",
		Inputs:  []Input{{Name: "target", Type: InputString}},
		Initial: "build",
		Order:   []string{"build", "ask", "done", "failed"},
		States: map[string]*State{
			"build":  {Name: "build", Type: StateCommand, Spec: &CommandSpec{Command: "make {{.inputs.target}}"}, OnSuccess: "ask", OnFailure: "failed", Pos: fault.Position{File: "wf.yaml", Line: 5, Column: 3}},
			"ask":    {Name: "ask", Type: StateAgent, Spec: &AgentSpec{Provider: "claude", Prompt: "{{.states.build.Output}}"}, OnSuccess: "done", Pos: fault.Position{File: "wf.yaml", Line: 9, Column: 3}},
			"done":   {Name: "done", Type: StateTerminal, Spec: &TerminalSpec{Status: StatusSuccess}, Pos: fault.Position{File: "wf.yaml", Line: 12, Column: 3}},
			"failed": {Name: "failed", Type: StateTerminal, Spec: &TerminalSpec{Status: StatusFailure}, Pos: fault.Position{File: "wf.yaml", Line: 13, Column: 3}},
		},
	}
}

func codes(ds fault.Diagnostics) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

func TestValidateInCode(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(w *Workflow)
		want   []string
		line   int // of the first diagnostic, where it matters
	}{
		{"valid", func(*Workflow) {}, []string{}, 0},
		{"no name", func(w *Workflow) { w.Name = " " }, []string{fault.UserWorkflowMissingName}, 1},
		{"no states", func(w *Workflow) { w.States = nil; w.Order = nil }, []string{fault.UserWorkflowNoStates}, 1},
		{"command written on agent", func(w *Workflow) {
			w.States["ask"].KeyPos = map[string]fault.Position{"command": {File: "wf.yaml", Line: 11, Column: 5}}
		}, []string{fault.UserWorkflowKeyNotAllowed}, 11},
		{"terminal with transition", func(w *Workflow) { w.States["done"].OnSuccess = "build" }, []string{fault.UserWorkflowTerminalTransition}, 12},
		{"proxy on command", func(w *Workflow) {
			w.States["build"].KeyPos = map[string]fault.Position{"mcp_proxy": {File: "wf.yaml", Line: 7, Column: 5}}
		}, []string{fault.UserWorkflowKeyNotAllowed}, 7},
		{"unknown status", func(w *Workflow) { w.States["done"].Terminal().Status = "ok" }, []string{fault.UserWorkflowInvalidStatus}, 12},
		{"negative timeout", func(w *Workflow) { w.States["build"].Timeout = -1 }, []string{fault.UserWorkflowInvalidTimeout}, 5},
		{"prompt file only is fine", func(w *Workflow) { w.States["ask"].Agent().Prompt = ""; w.States["ask"].Agent().PromptFile = "p.md" }, []string{}, 0},
		{"default of wrong type", func(w *Workflow) { w.Inputs[0] = Input{Name: "n", Type: InputInteger, Default: "3"} }, []string{fault.UserInputInvalidDefault, fault.UserTemplateUnknownInput}, 1},
		{"int default accepted", func(w *Workflow) { w.Inputs = append(w.Inputs, Input{Name: "n", Type: InputInteger, Default: 3}) }, []string{}, 0},
		{"bool default", func(w *Workflow) { w.Inputs = append(w.Inputs, Input{Name: "b", Type: InputBoolean, Default: "true"}) }, []string{fault.UserInputInvalidDefault}, 1},
		{"workflow field", func(w *Workflow) { w.States["build"].Command().Command = "{{.workflow.Id}}" }, []string{fault.UserTemplateUnknownField}, 5},
		{"env deep", func(w *Workflow) { w.States["build"].Command().Command = "{{.env.HOME.x}}" }, []string{fault.UserTemplateUnknownField}, 5},
		{"state field too deep", func(w *Workflow) {
			w.States["build"].Command().Dir = "{{.states.ask.Output.x}}"
			w.States["ask"].OnFailure = "build"
		}, []string{fault.UserTemplateUnknownField}, 5},
		{"input field", func(w *Workflow) { w.States["build"].Command().Command = "{{.inputs.target.x}}" }, []string{fault.UserTemplateUnknownField}, 5},
		{"proxy not enabled", func(w *Workflow) {
			w.States["ask"].Agent().MCPProxy = &MCPProxy{InterceptBuiltins: true, PluginTools: []PluginTools{{Plugin: "p", Expose: []string{"op"}}}, Intent: DefaultIntent()}
		}, []string{fault.UserMCPProxyNotEnabled}, 0},
		{"empty allow written in code is left alone", func(w *Workflow) {
			w.States["ask"].Agent().MCPProxy = &MCPProxy{Enable: true, InterceptBuiltins: true}
		}, []string{}, 0},
		{"bad variant", func(w *Workflow) {
			w.States["ask"].Agent().MCPProxy = &MCPProxy{Enable: true, InterceptBuiltins: true, Intent: IntentSettings{Allow: []tool.Variant{"admin"}}}
		}, []string{fault.UserMCPProxyInvalidIntent}, 0},
		{"empty operation name", func(w *Workflow) {
			w.States["ask"].Agent().MCPProxy = &MCPProxy{Enable: true, PluginTools: []PluginTools{{Plugin: "p", Expose: []string{" "}}}, Intent: DefaultIntent()}
		}, []string{fault.UserMCPProxyEmptyExpose}, 0},
		{"state missing from Order still checked", func(w *Workflow) {
			w.States["extra"] = &State{Name: "extra", Type: StateCommand, OnSuccess: "done"} // no spec: an empty command
		}, []string{fault.UserWorkflowMissingCommand, fault.UserWorkflowUnreachableState}, 0},
		{"loop through failure is an exit", func(w *Workflow) {
			w.States["build"].OnSuccess = "build"
			w.States["build"].OnFailure = "ask"
		}, []string{fault.UserWorkflowUnreachableState}, 13}, // nothing leads to "failed" any more
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := build()
			tt.mutate(w)
			ds := Validate(w)
			if got := codes(ds); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("codes = %v, want %v\n%v", got, tt.want, ds)
			}
			if tt.line > 0 && ds[0].Line != tt.line {
				t.Errorf("first diagnostic at line %d, want %d: %v", ds[0].Line, tt.line, ds[0])
			}
		})
	}
}

func TestValidateNil(t *testing.T) {
	if ds := Validate(nil); ds != nil {
		t.Errorf("Validate(nil) = %v", ds)
	}
}

// TestValidateCycleMessage checks the loop is named so the user sees which states go round.
func TestValidateCycleMessage(t *testing.T) {
	w := build()
	w.States["build"].OnSuccess = "ask"
	w.States["build"].OnFailure = ""
	w.States["ask"].OnSuccess = "build"
	ds := Validate(w)
	if got := codes(ds); !reflect.DeepEqual(got, []string{fault.UserWorkflowNoExit, fault.UserWorkflowNoExit, fault.UserWorkflowUnreachableState, fault.UserWorkflowUnreachableState}) {
		t.Fatalf("codes = %v\n%v", got, ds)
	}
	if want := `no path from state "build" reaches a terminal state: on_success goes build → ask → build`; ds[0].Message != want {
		t.Errorf("message = %q, want %q", ds[0].Message, want)
	}
}

func TestStateKeys(t *testing.T) {
	if got := StateKeys(StateTerminal); !reflect.DeepEqual(got, []string{"type", "description", "status", "message"}) {
		t.Errorf("terminal keys = %v", got)
	}
	all := StateKeys("nonsense")
	if len(all) != 40 {
		t.Errorf("all state keys = %v (%d), want 40 distinct keys", all, len(all))
	}
	for _, w := range []string{"command", "step"} {
		if st, ok := ParseStateType(w); !ok || st != StateCommand {
			t.Errorf("ParseStateType(%q) = %q, %v", w, st, ok)
		}
	}
	if st, ok := ParseStateType("shell"); ok || st != "shell" {
		t.Errorf("ParseStateType(shell) = %q, %v; want the raw word and false", st, ok)
	}
}

func TestMissingEnv(t *testing.T) {
	w := &Workflow{Env: []string{"A", "B", "C", "D"}}
	got := MissingEnv(w, map[string]string{"A": "1", "B": "", "D": "x=y", "": "nothing"})
	if strings.Join(got, ",") != "B,C" {
		t.Fatalf("missing = %v", got)
	}
	if MissingEnv(&Workflow{}, nil) != nil {
		t.Error("no env, nothing missing")
	}
}
