package run

import (
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Transition is where a state sends the run when the state itself decides it. The zero value
// leaves it to the state's transitions (on_success, on_failure, transitions:); GoTo sends the
// run to a named state whatever they say (a loop left early by a body state's transition);
// EndRun ends the run (terminal states, and only those).
type Transition struct {
	to  string
	end *End
}

// End is how a run ends in a state that ends it.
type End struct {
	Failed bool
	// Message is added to the run's error when it fails.
	Message string
}

// GoTo sends the run to state; GoTo("") is the zero Transition.
func GoTo(state string) Transition { return Transition{to: state} }

// EndRun ends the run as e says.
func EndRun(e End) Transition { return Transition{end: &e} }

// Ends returns how the run ends, when the transition ends it.
func (t Transition) Ends() (End, bool) {
	if t.end == nil {
		return End{}, false
	}
	return *t.end, true
}

// after is where the run goes from st, a state that does not end the run, when its own
// transitions lead to next: the state the transition names, else next. Ending the run there is
// the executor's mistake, which stops the run.
func (t Transition) after(st *workflow.State, next string) (string, error) {
	if t.end != nil {
		return next, Stop(fault.New(fault.SystemInternalUnexpected, "the executor of %s state %q ended the run, which only terminal states do", st.Type, st.Name))
	}
	if t.to != "" {
		return t.to, nil
	}
	return next, nil
}
