package workflow

import (
	"slices"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// graph checks the state machine as a whole: a terminal exists, every state can reach one, and
// every state can be reached from the initial state.
func (v *validator) graph() {
	w := v.w
	if len(v.stateNames) == 0 {
		return
	}
	if !slices.ContainsFunc(v.stateNames, func(n string) bool { return w.States[n].Ends() }) {
		v.ds.Errorf(w.KeyAt("states"), fault.UserWorkflowNoTerminal,
			"add a terminal state, e.g. `done: {type: terminal, status: success}`, and point an on_success at it",
			"workflow has no terminal state: no run could ever finish")
	} else {
		v.loops()
	}
	v.unreachable()
}

// edges returns the existing targets of s. Terminal states have none, even when the file
// wrongly gives them transitions (that is reported on its own). A loop or parallel state also
// leads to its members, and a member back to its owner; a parallel branch's own transitions
// are not followed.
func (v *validator) edges(s *State) []string {
	if s.Ends() {
		return nil
	}
	var out []string
	ts := s.targets()
	if o := v.nest.Owner(s.Name); o != "" {
		if v.w.States[o].Parallel() != nil {
			ts = nil
		}
		ts = append(ts, o)
	}
	for _, t := range append(ts, s.Members()...) {
		if t != "" && v.w.States[t] != nil {
			out = append(out, t)
		}
	}
	return out
}

// settled reports whether a state counts as able to finish for the loop check: terminals, and
// states that already carry a more precise error (no type, no on_success, a dangling target),
// so one mistake is not reported twice.
func (v *validator) settled(s *State) bool {
	if s.Ends() || NewSpec(s.Type) == nil || (s.SuccessTarget() == "" && !s.alwaysMoves() && v.nest.Owner(s.Name) == "") {
		return true
	}
	for _, t := range s.targets() {
		if t != "" && v.w.States[t] == nil {
			return true
		}
	}
	return false
}

// loops reports the states from which no path reaches a terminal state: transitions that only
// go round in a cycle.
func (v *validator) loops() {
	w := v.w
	preds := map[string][]string{}
	for _, n := range v.stateNames {
		for _, t := range v.edges(w.States[n]) {
			preds[t] = append(preds[t], n)
		}
	}
	finishes := map[string]bool{}
	var queue []string
	for _, n := range v.stateNames {
		if v.settled(w.States[n]) {
			finishes[n] = true
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, p := range preds[n] {
			if !finishes[p] {
				finishes[p] = true
				queue = append(queue, p)
			}
		}
	}
	for _, n := range v.stateNames {
		if finishes[n] {
			continue
		}
		s := w.States[n]
		v.ds.Errorf(s.Pos, fault.UserWorkflowNoExit,
			"give one state of the loop an on_failure or on_success that leads to a terminal state",
			"no path from state %q reaches a terminal state: %s", n, v.cycle(n))
	}
}

// cycle describes where following on_success from start ends up going round.
func (v *validator) cycle(start string) string {
	seen := map[string]bool{}
	path := []string{start}
	for cur := start; !seen[cur]; {
		seen[cur] = true
		next := v.w.States[cur].SuccessTarget()
		if next == "" || v.w.States[next] == nil {
			break
		}
		path = append(path, next)
		cur = next
	}
	const maxShown = 8
	if len(path) > maxShown {
		path = append(path[:maxShown-1], "…", path[len(path)-1])
	}
	return "on_success goes " + strings.Join(path, " → ")
}

// unreachable warns about states no run can enter. It needs a valid initial state, and stays
// silent while a reachable state has a broken transition (fixing it may well reach the rest).
func (v *validator) unreachable() {
	w := v.w
	if w.States[w.Initial] == nil {
		return
	}
	seen := map[string]bool{w.Initial: true}
	queue := []string{w.Initial}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, t := range v.edges(w.States[n]) {
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	for n := range seen {
		if s := w.States[n]; !s.Ends() && v.settled(s) {
			return // a reached state has a broken transition: the picture is incomplete
		}
	}
	for _, n := range v.stateNames {
		if seen[n] {
			continue
		}
		v.ds.Warnf(w.States[n].Pos, fault.UserWorkflowUnreachableState, "point an on_success or on_failure at it, or remove it",
			"state %q is never reached from initial state %q", n, w.Initial)
	}
}
