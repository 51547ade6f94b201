package workflow

import (
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

var terminalStatusNames = []string{string(StatusSuccess), string(StatusFailure)}

// terminalStateKeys are the keys of a terminal state besides the common ones.
var terminalStateKeys = []string{"status", "message"}

// TerminalSpec is how a terminal state ends the run.
type TerminalSpec struct {
	// Status is success or failure; "" (a state built in code) counts as success.
	Status TerminalStatus
	// Message is a template added to the error of a failure terminal.
	Message string
}

// Kind implements Spec.
func (*TerminalSpec) Kind() StateType { return StateTerminal }

func (t *TerminalSpec) validate(v *validator, s *State) {
	if t.Status != "" && t.Status != StatusSuccess && t.Status != StatusFailure {
		v.ds.Errorf(s.ValueAt("status"), fault.UserWorkflowInvalidStatus, suggest.DidYouMean(string(t.Status), terminalStatusNames),
			"terminal state %q has status %q; it must be success or failure", s.Name, t.Status)
	}
}

// templates is empty: the message is rendered only when the run ends, and a broken one is
// left out of the error rather than hiding it.
func (*TerminalSpec) templates() []templateField { return nil }

// Failed reports whether reaching the state ends the run as a failure.
func (t *TerminalSpec) Failed() bool { return t.Status == StatusFailure }
