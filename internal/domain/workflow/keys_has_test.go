package workflow

import (
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/retry"
)

// TestStateHasKeyInCode covers States built in code, which have no written positions: each
// common key counts as set exactly when its field holds a non-zero value.
func TestStateHasKeyInCode(t *testing.T) {
	full := &State{
		Description: "d", Timeout: time.Second, OnSuccess: "a", OnFailure: "b",
		Transitions: []Transition{{Goto: "a"}}, Retry: &retry.Policy{},
	}
	empty := &State{}
	for _, key := range []string{"description", "timeout", "on_success", "on_failure", "transitions", "retry"} {
		if !stateHasKey(full, key) {
			t.Errorf("a state with %s set: stateHasKey = false", key)
		}
		if stateHasKey(empty, key) {
			t.Errorf("a state without %s: stateHasKey = true", key)
		}
	}
	if stateHasKey(full, "command") {
		t.Error("a kind's own key is never set on a State built without its spec")
	}
	written := &State{}
	wrote(written, "description", p(3, 5), p(3, 18))
	if !stateHasKey(written, "description") {
		t.Error("a key written in the file, even empty, is set")
	}
}

// TestContinuesOnError: only a command state can follow on_success after a failure.
func TestContinuesOnError(t *testing.T) {
	tests := []struct {
		name string
		s    *State
		want bool
	}{
		{"command that continues", &State{Type: StateCommand, Spec: &CommandSpec{ContinueOnError: true}}, true},
		{"command that stops", &State{Type: StateCommand, Spec: &CommandSpec{}}, false},
		{"agent", &State{Type: StateAgent, Spec: &AgentSpec{}}, false},
	}
	for _, tt := range tests {
		if got := tt.s.ContinuesOnError(); got != tt.want {
			t.Errorf("%s: ContinuesOnError = %v, want %v", tt.name, got, tt.want)
		}
	}
}
