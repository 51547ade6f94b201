package workflow

import (
	"fmt"
	"slices"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// flow checks how loop and parallel states own their members: each member has one owner, no
// state owns itself through others, and nothing outside an owner enters its members (a body or
// branch state runs only through its loop or parallel state, with its loop data and events).
func (v *validator) flow() {
	w, n := v.w, v.nest
	for _, name := range v.stateNames {
		s := w.States[name]
		for i, m := range s.Members() {
			if o := n.Owner(m); o != "" && o != name {
				key := "body"
				if s.Parallel() != nil {
					key = "parallel"
				}
				v.ds.Errorf(s.ValueAt(fmt.Sprintf("%s[%d]", key, i)), fault.UserWorkflowInvalidMember,
					fmt.Sprintf("give %q its own copy of the state, under another name", name),
					"state %q is already run by %q; a state belongs to one loop or parallel state", m, o)
			}
		}
		if o := n.Owner(name); o != "" && n.Inside(o, name) {
			v.ds.Errorf(s.Pos, fault.UserWorkflowInvalidMember, "a loop or parallel state cannot run the state that runs it",
				"states %q and %q run each other", name, o)
		}
	}
	if o := n.Owner(w.Initial); o != "" {
		v.ds.Errorf(w.ValueAt("states.initial"), fault.UserWorkflowMemberEntered, fmt.Sprintf("start at %q, which runs it", o),
			"initial state %q is run by %q; it cannot start the run", w.Initial, o)
	}
	for _, name := range v.stateNames {
		v.entries(w.States[name])
	}
}

// entries reports each transition of s that enters a member from outside its owner. A
// parallel branch's own transitions are not followed (the parallel state decides), as in the
// reference awf, whose workflows often point them at the state after the parallel one.
func (v *validator) entries(s *State) {
	n := v.nest
	if o := n.Owner(s.Name); s.Ends() || o != "" && v.w.States[o].Parallel() != nil {
		return
	}
	for _, t := range s.keyedTargets() {
		o := n.Owner(t.target)
		if o == "" || s.Name != o && n.Inside(s.Name, o) {
			continue
		}
		v.ds.Errorf(s.ValueAt(t.key), fault.UserWorkflowMemberEntered, fmt.Sprintf("go to %q instead, which runs it", o),
			"%s of state %q enters %q, which only %q runs", t.key, s.Name, t.target, o)
	}
}

type keyedTarget struct{ key, target string }

// keyedTargets are the states s names as next, with the key naming each.
func (s *State) keyedTargets() []keyedTarget {
	out := []keyedTarget{{"on_success", s.OnSuccess}, {"on_failure", s.OnFailure}}
	if l := s.Loop(); l != nil {
		out = append(out, keyedTarget{"on_complete", l.OnComplete}, keyedTarget{"on_exhausted", l.OnExhausted})
	}
	for i, tr := range s.Transitions {
		out = append(out, keyedTarget{fmt.Sprintf("transitions[%d].goto", i), tr.Goto})
	}
	return slices.DeleteFunc(out, func(t keyedTarget) bool { return t.target == "" })
}

// loopRef checks a template's reference to .loop against how many loops run the state.
func (v *validator) loopRef(pos fault.Position, where string, r Ref) {
	if v.depth == 0 {
		v.ds.Errorf(pos, fault.UserTemplateLoopOutside, "use .loop only in the body states of a for_each or while state",
			"%s reads %s, but no loop runs this state", where, r)
		return
	}
	if ok, msg := LoopPathOK(r.Path[1:], v.depth); !ok {
		v.ds.Errorf(pos, fault.UserTemplateLoopOutside, "loop fields: "+joinFields(), "%s reads %s: %s", where, r, msg)
	}
}

// LoopFields are the fields of the loop data, in both spellings workflows use.
var LoopFields = []string{"Item", "Index", "Index1", "First", "Last", "Length", "Parent", "item", "index", "index1", "first", "last", "length", "parent"}

func joinFields() string { return "Item, Index, Index1, First, Last, Length, Parent (or lowercase)" }

// LoopPathOK checks a path under loop (["Parent", "Item"]) for a state that depth loops run.
// Fields of Item are free: an item may be an object.
func LoopPathOK(path []string, depth int) (bool, string) {
	for _, f := range path {
		if !slices.Contains(LoopFields, f) {
			return false, fmt.Sprintf("loop has no field %q", f)
		}
		if f != "Parent" && f != "parent" {
			return true, ""
		}
		depth--
		if depth < 1 {
			return false, "no enclosing loop runs this loop, so it has no Parent"
		}
	}
	return true, ""
}
