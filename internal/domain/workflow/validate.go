package workflow

import (
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// Validate checks the rules of a workflow that need no file format and no outside knowledge
// (plugins and provider binaries are checked by the application's validators). It returns every
// problem at once, sorted by position, so a user fixes a file in one round.
//
// A workflow built in code is accepted too: positions then fall back to the state or the file,
// and a key counts as written when its field holds a non-zero value.
func Validate(w *Workflow) fault.Diagnostics {
	if w == nil {
		return nil
	}
	v := &validator{w: w, stateNames: stateNames(w), nest: NewNesting(w)}
	v.header()
	v.env()
	v.inputs()
	for _, name := range v.stateNames {
		v.state(w.States[name])
	}
	v.hooks("workflow", w.Hooks.Named())
	v.flow()
	v.graph()
	v.order()
	v.outputs()
	v.ds.Sort()
	return v.ds
}

// validator carries what the rules share while they run.
type validator struct {
	w          *Workflow
	ds         fault.Diagnostics
	stateNames []string // file order, then any state missing from Order
	inputNames []string
	// errorOK is set while checking templates that may read .error (workflow_error hooks).
	errorOK bool
	// nest says which loop or parallel state runs each state; depth is how many loops run the
	// state being checked, for its templates' .loop references.
	nest  Nesting
	depth int
}

// stateNames lists the states in file order; states only in the map (built in code) follow in
// name order, so output is stable either way.
func stateNames(w *Workflow) []string {
	seen := make(map[string]bool, len(w.States))
	var out []string
	for _, n := range w.Order {
		if _, ok := w.States[n]; ok && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	var rest []string
	for n, s := range w.States {
		if !seen[n] && s != nil {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func (v *validator) header() {
	w := v.w
	if strings.TrimSpace(w.Name) == "" {
		if _, written := w.Pos["name"]; written {
			v.ds.Errorf(w.ValueAt("name"), fault.UserWorkflowMissingName, "give the workflow a name, e.g. `name: review`", "workflow name is empty")
		} else {
			v.ds.Errorf(w.KeyAt(""), fault.UserWorkflowMissingName, "add `name: <workflow-name>` at the top of the file", "workflow has no name")
		}
	}
	if len(v.stateNames) == 0 {
		v.ds.Errorf(w.KeyAt("states"), fault.UserWorkflowNoStates,
			"add a `states:` map with `initial: <state>` and the states, ending in a `type: terminal` state",
			"workflow has no states")
		return
	}
	switch {
	case strings.TrimSpace(w.Initial) == "":
		pos := w.KeyAt("states")
		if _, written := w.Pos["states.initial"]; written {
			pos = w.ValueAt("states.initial")
		}
		v.ds.Errorf(pos, fault.UserWorkflowMissingInitial, "add `initial: "+v.stateNames[0]+"` under `states:` (or whichever state runs first)",
			"workflow has no initial state")
	case w.States[w.Initial] == nil:
		v.ds.Errorf(w.ValueAt("states.initial"), fault.UserWorkflowUnknownInitial, suggest.DidYouMean(w.Initial, v.stateNames),
			"initial state %q is not defined", w.Initial)
	}
}
