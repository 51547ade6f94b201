package workflow

import (
	"strconv"
	"strings"
)

// Parallel returns the spec of a parallel state, nil for any other kind.
func (s *State) Parallel() *ParallelSpec {
	p, _ := s.spec().(*ParallelSpec)
	return p
}

// ForEach returns the spec of a for_each state, nil for any other kind.
func (s *State) ForEach() *ForEachSpec {
	f, _ := s.spec().(*ForEachSpec)
	return f
}

// While returns the spec of a while state, nil for any other kind.
func (s *State) While() *WhileSpec {
	w, _ := s.spec().(*WhileSpec)
	return w
}

// Loop returns the loop part of a for_each or while state, nil for any other kind.
func (s *State) Loop() *LoopSpec {
	switch sp := s.spec().(type) {
	case *ForEachSpec:
		return &sp.LoopSpec
	case *WhileSpec:
		return &sp.LoopSpec
	}
	return nil
}

// Members are the states a loop or parallel state runs itself (its body or its branches); nil
// for other kinds.
func (s *State) Members() []string {
	if l := s.Loop(); l != nil {
		return l.Body
	}
	if p := s.Parallel(); p != nil {
		return p.Branches
	}
	return nil
}

// SuccessTarget is where the state goes after it succeeds and no transition matched: a loop's
// on_complete when set, else on_success.
func (s *State) SuccessTarget() string {
	if l := s.Loop(); l != nil && l.OnComplete != "" {
		return l.OnComplete
	}
	return s.OnSuccess
}

// ExhaustedTarget is where a loop goes after it stopped at max_iterations without its
// condition ending it: on_exhausted when set, else SuccessTarget.
func (s *State) ExhaustedTarget() string {
	if l := s.Loop(); l != nil && l.OnExhausted != "" {
		return l.OnExhausted
	}
	return s.SuccessTarget()
}

// Nesting records which loop or parallel state runs each body or branch state. A state listed
// by two is owned by the first in file order (the validator reports the second).
type Nesting struct {
	w     *Workflow
	owner map[string]string
}

// NewNesting maps each member state to the loop or parallel state that runs it.
func NewNesting(w *Workflow) Nesting {
	n := Nesting{w: w, owner: map[string]string{}}
	for _, name := range stateNames(w) {
		for _, m := range w.States[name].Members() {
			if _, taken := n.owner[m]; !taken && m != name && w.States[m] != nil && !w.States[m].Ends() {
				n.owner[m] = name
			}
		}
	}
	return n
}

// Owner is the loop or parallel state that runs name, "" for a state of the main flow.
func (n Nesting) Owner(name string) string { return n.owner[name] }

// chain lists the owners of name from the nearest out, stopping at a cycle.
func (n Nesting) chain(name string) []string {
	var out []string
	seen := map[string]bool{name: true}
	for o := n.owner[name]; o != "" && !seen[o]; o = n.owner[o] {
		seen[o] = true
		out = append(out, o)
	}
	return out
}

// LoopDepth is how many loops run name, counting loops around parallel states too: the depth
// of the `loop` data its templates see.
func (n Nesting) LoopDepth(name string) int {
	d := 0
	for _, o := range n.chain(name) {
		if s := n.w.States[o]; s != nil && s.Loop() != nil {
			d++
		}
	}
	return d
}

// Inside reports whether name is owner or runs (directly or deeper) inside owner.
func (n Nesting) Inside(name, owner string) bool {
	if name == owner {
		return true
	}
	for _, o := range n.chain(name) {
		if o == owner {
			return true
		}
	}
	return false
}

// ExprField is one expression of a state, for the validator that compiles them: its key path
// ("transitions[0].when", "break_when"), its text, whether it is a count (max_iterations) rather
// than a condition, and whether it sees the state's own loop iteration (while, break_when).
type ExprField struct {
	Key, Text string
	Count     bool
	OwnLoop   bool
}

// Expressions are every expression the state holds, in checking order.
func (s *State) Expressions() []ExprField {
	var out []ExprField
	for i, tr := range s.Transitions {
		if tr.When != "" {
			out = append(out, ExprField{Key: "transitions[" + strconv.Itoa(i) + "].when", Text: tr.When})
		}
	}
	if w := s.While(); w != nil && strings.TrimSpace(w.While) != "" {
		out = append(out, ExprField{Key: "while", Text: w.While, OwnLoop: true})
	}
	if l := s.Loop(); l != nil {
		if l.BreakWhen != "" {
			out = append(out, ExprField{Key: "break_when", Text: l.BreakWhen, OwnLoop: true})
		}
		if c := l.CountExpr(); c != "" {
			out = append(out, ExprField{Key: "max_iterations", Text: c, Count: true})
		}
	}
	return out
}
