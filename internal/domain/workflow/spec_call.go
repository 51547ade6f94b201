package workflow

import (
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// callStateKeys are the keys of a call_workflow state besides the common ones, written flat in
// the state as the reference awf reads them.
var callStateKeys = []string{"workflow", "inputs", "outputs", "timeout", "on_success", "on_failure", "transitions", "retry"}

// MaxCallDepth bounds how deep call_workflow states may nest at run time, as in the reference
// awf: the tenth nested call fails instead of recursing until memory runs out.
const MaxCallDepth = 10

// CallSpec is what a call_workflow state runs: another workflow, as a sub-workflow with its own
// inputs and its own states, whose outcome becomes this state's.
type CallSpec struct {
	// Workflow names the called workflow: a name looked up beside the calling workflow's file,
	// then in .awf/workflows, or a path relative to the calling file.
	Workflow string
	// Inputs are templates rendered in the caller's scope, by the called workflow's input name.
	// InputOrder keeps the file order for stable messages.
	Inputs     map[string]string
	InputOrder []string
	// Outputs map a name the called workflow produces (one of its declared `outputs:`, else one
	// of its states, whose Output is taken) to the name the caller reads it under, as
	// states.<this state>.Response.<name>. OutputOrder keeps the file order.
	Outputs     map[string]string
	OutputOrder []string
}

// Kind implements Spec.
func (*CallSpec) Kind() StateType { return StateCallWorkflow }

func (c *CallSpec) validate(v *validator, s *State) {
	v.required(s, "workflow", c.Workflow, fault.UserCallMissingWorkflow, "add `workflow: <name of the workflow to call>`")
	for _, from := range c.OutputOrder {
		if strings.TrimSpace(c.Outputs[from]) == "" {
			v.ds.Errorf(s.ValueAt("outputs."+from), fault.UserCallInvalidOutput, "write the name the caller reads it under, e.g. `"+from+": "+from+"`",
				"outputs.%s of state %q maps to an empty name", from, s.Name)
		}
	}
}

func (c *CallSpec) templates() []templateField {
	out := make([]templateField, 0, len(c.InputOrder))
	for _, k := range c.InputOrder {
		out = append(out, templateField{"inputs." + k, c.Inputs[k]})
	}
	return out
}

// Call returns the spec of a call_workflow state, nil for any other kind.
func (s *State) Call() *CallSpec {
	c, _ := s.spec().(*CallSpec)
	return c
}

// CallChain renders a chain of workflow names as a cycle message shows it: "a → b → a".
func CallChain(names []string) string { return strings.Join(names, " → ") }

// CallDepthError is the run-time error of a call nested deeper than MaxCallDepth.
func CallDepthError(state string, chain []string) error {
	return fault.New(fault.ExecutionCallDepth, "state %q would nest a %d-th sub-workflow (%s): the limit is %d", state, len(chain), CallChain(chain), MaxCallDepth).
		WithHint("flatten the chain of call_workflow states")
}

// CallCycleError is the run-time error of a call to a workflow already running in the chain;
// validation refuses such workflows, so only a file changed during the run can meet it.
func CallCycleError(state string, chain []string) error {
	return fault.New(fault.ExecutionCallCycle, "state %q calls a workflow already running: %s", state, CallChain(chain)).
		WithHint("a workflow may not call itself, directly or through others")
}
