package workflow

import (
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

func TestKinds(t *testing.T) {
	if got := Kinds(); !reflect.DeepEqual(got, []StateType{StateCommand, StateAgent, StateTerminal, StateParallel, StateForEach, StateWhile, StateCallWorkflow, StateOperation}) {
		t.Errorf("Kinds() = %v", got)
	}
	for _, k := range Kinds() {
		if s := NewSpec(k); s == nil || s.Kind() != k {
			t.Errorf("NewSpec(%s) = %#v", k, s)
		}
	}
	if s := NewSpec("shell"); s != nil {
		t.Errorf("NewSpec of an unknown kind = %#v", s)
	}
	a, b := NewSpec(StateAgent), NewSpec(StateAgent)
	a.(*AgentSpec).Provider = "x"
	if b.(*AgentSpec).Provider != "" {
		t.Error("NewSpec hands out one shared spec")
	}
	if !reflect.DeepEqual(StateTypeNames, []string{"command", "agent", "terminal", "parallel", "for_each", "while", "call_workflow", "operation", "step"}) {
		t.Errorf("StateTypeNames = %v", StateTypeNames)
	}
	for word, want := range map[string]StateType{"command": StateCommand, "step": StateCommand, "agent": StateAgent, "terminal": StateTerminal} {
		if got, ok := ParseStateType(word); !ok || got != want {
			t.Errorf("ParseStateType(%q) = %q, %v", word, got, ok)
		}
	}
}

func TestStateKeysByKind(t *testing.T) {
	tests := []struct {
		t    StateType
		want []string
	}{
		{StateCommand, []string{"type", "description", "command", "script_file", "shell", "dir", "env", "timeout", "continue_on_error", "capture", "hooks", "on_success", "on_failure", "transitions", "retry"}},
		{StateAgent, []string{"type", "description", "provider", "prompt", "prompt_file", "system_prompt", "output_format", "mode", "conversation", "options", "dir", "timeout", "mcp_proxy", "hooks", "on_success", "on_failure", "transitions", "retry"}},
		{StateTerminal, []string{"type", "description", "status", "message"}},
		{"", []string{"type", "description", "command", "script_file", "shell", "dir", "env", "timeout", "continue_on_error", "capture", "hooks", "on_success", "on_failure", "transitions", "retry", "provider", "prompt", "prompt_file", "system_prompt", "output_format", "mode", "conversation", "options", "mcp_proxy", "status", "message", "parallel", "strategy", "max_concurrent", "items", "body", "max_iterations", "break_when", "on_complete", "on_exhausted", "while", "workflow", "inputs", "outputs", "operation"}},
		{StateParallel, []string{"type", "description", "parallel", "strategy", "max_concurrent", "on_success", "on_failure", "transitions", "timeout"}},
		{StateForEach, []string{"type", "description", "items", "max_concurrent", "body", "max_iterations", "break_when", "on_complete", "on_exhausted", "on_success", "on_failure", "transitions", "timeout"}},
		{StateWhile, []string{"type", "description", "while", "body", "max_iterations", "break_when", "on_complete", "on_exhausted", "on_success", "on_failure", "transitions", "timeout"}},
		{StateCallWorkflow, []string{"type", "description", "workflow", "inputs", "outputs", "timeout", "on_success", "on_failure", "transitions", "retry"}},
		{StateOperation, []string{"type", "description", "operation", "inputs", "timeout", "on_success", "on_failure", "transitions", "retry"}},
	}
	for _, tc := range tests {
		if got := StateKeys(tc.t); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("StateKeys(%q) = %v", tc.t, got)
		}
	}
	// Callers may append to what they get without changing the lists.
	_ = append(StateKeys(StateTerminal), "x")
	if got := StateKeys(StateTerminal); len(got) != 4 {
		t.Errorf("StateKeys shares its backing array: %v", got)
	}
}

func TestSpecAccessors(t *testing.T) {
	cmd := &CommandSpec{Command: "make"}
	tests := []struct {
		name                 string
		st                   *State
		command, agent, term bool
		sameSpec             bool // the accessor returns the state's own spec
		ends                 bool
	}{
		{"command", &State{Type: StateCommand, Spec: cmd}, true, false, false, true, false},
		{"agent without a spec reads as an empty one", &State{Type: StateAgent}, false, true, false, false, false},
		{"terminal", &State{Type: StateTerminal, Spec: &TerminalSpec{}}, false, false, true, true, true},
		{"a spec of another kind reads as the type's empty spec", &State{Type: StateAgent, Spec: cmd}, false, true, false, false, false},
		{"unknown type", &State{Type: "shell", Spec: &UnknownSpec{Word: "shell", Parts: []Spec{cmd}}}, false, false, false, true, false},
		{"no type", &State{}, false, false, false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.st
			if (st.Command() != nil) != tc.command || (st.Agent() != nil) != tc.agent || (st.Terminal() != nil) != tc.term || st.Ends() != tc.ends {
				t.Errorf("Command %v Agent %v Terminal %v Ends %v", st.Command(), st.Agent(), st.Terminal(), st.Ends())
			}
			if got := st.spec(); (got == st.Spec) != tc.sameSpec || (got != nil && st.Type != "" && got.Kind() != st.Type) {
				t.Errorf("spec() = %#v for %#v", got, st.Spec)
			}
		})
	}
	if a := (&State{Type: StateAgent, Spec: cmd}).Agent(); a.Provider != "" || a.MCPProxy != nil {
		t.Errorf("a mismatched spec leaked into the agent spec: %+v", a)
	}
	if !(&TerminalSpec{Status: StatusFailure}).Failed() || (&TerminalSpec{}).Failed() || (&TerminalSpec{Status: StatusSuccess}).Failed() {
		t.Error("TerminalSpec.Failed")
	}
}

// TestUnknownKindStillChecksTemplates: a state whose type is a typo still has its templates
// checked, so one round shows every mistake of the state.
func TestUnknownKindStillChecksTemplates(t *testing.T) {
	w := build()
	w.States["build"] = &State{Name: "build", Type: "comand", OnSuccess: "ask", Pos: fault.Position{File: "wf.yaml", Line: 5, Column: 3},
		Spec: &UnknownSpec{Word: "comand", Parts: []Spec{&CommandSpec{Command: "make {{.inputs.nope}}"}, &AgentSpec{Prompt: "{{.stats.x}}"}}}}
	ds := Validate(w)
	want := []string{fault.UserWorkflowUnknownStateType, fault.UserTemplateUnknownInput, fault.UserTemplateUnknownReference}
	if got := codes(ds); !reflect.DeepEqual(got, want) {
		t.Fatalf("codes = %v, want %v\n%v", got, want, ds)
	}
	if u := (&UnknownSpec{Word: "x"}); u.Kind() != "x" || u.templates() != nil {
		t.Errorf("an empty UnknownSpec: %v %v", u.Kind(), u.templates())
	}
	var v validator
	(&UnknownSpec{}).validate(&v, &State{})
	if len(v.ds) != 0 {
		t.Errorf("UnknownSpec.validate guessed: %v", v.ds)
	}
}
