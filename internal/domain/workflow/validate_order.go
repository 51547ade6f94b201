package workflow

import "github.com/awf-dev/awf/internal/domain/fault"

// order reports templates that read a state no run can have finished before the state holding
// them: a state reading itself outside any cycle, or one that only runs later. Such a template
// fails every run that reaches it (the reference awf calls it a forward reference), so it is an
// error of awf validate. A state that runs on some paths but not others is left to the run,
// which says which state has not run yet.
func (v *validator) order() {
	w := v.w
	if w.States[w.Initial] == nil {
		return
	}
	fromInitial := v.reach(w.Initial)
	fromInitial[w.Initial] = true
	after := map[string]map[string]bool{}
	for _, n := range v.stateNames {
		s := w.States[n]
		if !fromInitial[n] {
			continue // never entered: warned about on its own
		}
		for _, f := range orderedTemplates(s) {
			refs, err := TemplateRefs(f.text)
			if err != nil {
				continue // reported by the template check
			}
			seen := map[string]bool{}
			for _, r := range refs {
				if len(r.Path) < 2 || r.Path[0] != "states" || w.States[r.Path[1]] == nil || seen[r.Path[1]] {
					continue
				}
				x := r.Path[1]
				seen[x] = true
				if after[x] == nil {
					after[x] = v.reach(x)
				}
				if fromInitial[x] && after[x][n] {
					continue
				}
				why := "no path leads from it to here"
				if x == n {
					why = "it reads its own results, and no transition brings the run back to it"
				}
				v.ds.Errorf(s.ValueAt(f.key), fault.UserTemplateNeverRun,
					"read a state that runs before this one on some path, or move this step after "+x,
					"%s of state %q reads .states.%s, which can never have run by then: %s", f.key, n, x, why)
			}
		}
	}
}

// orderedTemplates are the templates of s that render when s runs: its kind's, and a terminal's
// message.
func orderedTemplates(s *State) []templateField {
	sp := s.spec()
	if sp == nil {
		return nil
	}
	out := sp.templates()
	if t := s.Terminal(); t != nil && t.Message != "" {
		out = append(out, templateField{"message", t.Message})
	}
	return out
}

// reach returns the states reachable from start by one edge or more (start itself only through
// a cycle).
func (v *validator) reach(start string) map[string]bool {
	seen := map[string]bool{}
	queue := v.edges(v.w.States[start])
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		queue = append(queue, v.edges(v.w.States[n])...)
	}
	return seen
}
