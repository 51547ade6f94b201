package workflow

import (
	"slices"
	"testing"
)

func TestKeyVariables(t *testing.T) {
	agent := func(opts map[string]any) *State { return &State{Spec: &AgentSpec{Options: opts}} }
	for _, tc := range []struct {
		name string
		w    *Workflow
		want []string
	}{
		{"nil workflow", nil, nil},
		{"no agent steps", &Workflow{Order: []string{"c"}, States: map[string]*State{"c": {Spec: &CommandSpec{Command: "x"}}}}, nil},
		{"in step order, each once", &Workflow{Order: []string{"b", "gone", "a", "c"}, States: map[string]*State{
			"a": agent(map[string]any{"api_key_env": "A_CRED"}),
			"b": agent(map[string]any{"api_key_env": "B_CRED"}),
			"c": agent(map[string]any{"api_key_env": "B_CRED"}),
		}}, []string{"B_CRED", "A_CRED"}},
		{"empty, missing or not a string", &Workflow{Order: []string{"a", "b", "c"}, States: map[string]*State{
			"a": agent(map[string]any{"api_key_env": ""}),
			"b": agent(nil),
			"c": agent(map[string]any{"api_key_env": 3}),
		}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.w.KeyVariables(); !slices.Equal(got, tc.want) {
				t.Fatalf("KeyVariables() = %q, want %q", got, tc.want)
			}
		})
	}
}
