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
	r := v.reachability()
	entered := func(n string) bool { return n == w.Initial || r.reaches(w.Initial, n) }
	for _, n := range v.stateNames {
		s := w.States[n]
		if !entered(n) {
			continue // never entered: warned about on its own
		}
		for _, f := range orderedTemplates(s) {
			refs, err := TemplateRefs(f.text)
			if err != nil {
				continue // reported by the template check
			}
			seen := map[string]bool{}
			for _, ref := range refs {
				if len(ref.Path) < 2 || ref.Path[0] != "states" || w.States[ref.Path[1]] == nil || seen[ref.Path[1]] {
					continue
				}
				x := ref.Path[1]
				seen[x] = true
				if entered(x) && r.reaches(x, n) {
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

// reachability says which states a run can go on to from each state, by one edge or more. It is
// built once per validation: the strongly connected components of the state graph (Tarjan),
// then one bit set per component in reverse topological order, so a 500-state workflow costs a
// few thousand word operations rather than a walk of the graph per state read.
type reachability struct {
	idx  map[string]int
	comp []int      // component of each state
	bits [][]uint64 // states reachable from each component's states
}

func (r reachability) reaches(from, to string) bool {
	i, ok1 := r.idx[from]
	j, ok2 := r.idx[to]
	if !ok1 || !ok2 {
		return false
	}
	return r.bits[r.comp[i]][j/64]&(1<<(j%64)) != 0
}

func (v *validator) reachability() reachability {
	names := v.stateNames
	n := len(names)
	r := reachability{idx: make(map[string]int, n), comp: make([]int, n)}
	for i, name := range names {
		r.idx[name] = i
	}
	succ := make([][]int, n)
	for i, name := range names {
		for _, t := range v.edges(v.w.States[name]) {
			if j, ok := r.idx[t]; ok {
				succ[i] = append(succ[i], j)
			}
		}
	}
	comps := tarjan(succ, r.comp) // sinks first
	words := (n + 63) / 64
	r.bits = make([][]uint64, len(comps))
	for c, members := range comps {
		set := make([]uint64, words)
		cyclic := len(members) > 1
		for _, i := range members {
			for _, j := range succ[i] {
				if d := r.comp[j]; d == c {
					cyclic = true
				} else {
					for k, word := range r.bits[d] {
						set[k] |= word
					}
					for _, m := range comps[d] {
						set[m/64] |= 1 << (m % 64)
					}
				}
			}
		}
		if cyclic {
			for _, m := range members {
				set[m/64] |= 1 << (m % 64)
			}
		}
		r.bits[c] = set
	}
	return r
}

// tarjan returns the strongly connected components of the graph succ, each component's number
// written to comp, in the order Tarjan's algorithm closes them: every component reachable from
// another comes before it.
func tarjan(succ [][]int, comp []int) [][]int {
	n := len(succ)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var comps [][]int
	next := 0
	var visit func(i int)
	visit = func(i int) {
		index[i], low[i] = next, next
		next++
		stack = append(stack, i)
		onStack[i] = true
		for _, j := range succ[i] {
			switch {
			case index[j] < 0:
				visit(j)
				low[i] = min(low[i], low[j])
			case onStack[j]:
				low[i] = min(low[i], index[j])
			}
		}
		if low[i] != index[i] {
			return
		}
		var members []int
		for {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[j] = false
			comp[j] = len(comps)
			members = append(members, j)
			if j == i {
				break
			}
		}
		comps = append(comps, members)
	}
	for i := range succ {
		if index[i] < 0 {
			visit(i)
		}
	}
	return comps
}
