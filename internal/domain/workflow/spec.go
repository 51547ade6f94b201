package workflow

// Spec is the part of a state that only its kind has. Each kind is one Spec type in this
// package, listed once in kinds below, with its keys, its validator and its run-time templates
// beside it, so a new kind is one file here, one decode case, and one executor.
type Spec interface {
	// Kind is the state type the spec belongs to.
	Kind() StateType
	// validate checks the kind's own rules; the validator checks the common fields.
	validate(v *validator, s *State)
	// templates are the keys interpolated at run time, with their text, in checking order.
	templates() []templateField
}

// templateField is one template a spec holds: its key and its text.
type templateField struct{ key, text string }

// kind describes one state kind: its type, other words accepted for it in YAML, the keys it
// accepts besides the common "type" and "description" (in the order hints list them), and its
// empty spec.
type kind struct {
	typ     StateType
	aliases []string
	keys    []string
	empty   func() Spec
}

// kinds lists every state kind awf runs, in the order hints list them.
var kinds = []kind{
	{StateCommand, []string{"step"}, commandStateKeys, func() Spec { return &CommandSpec{} }},
	{StateAgent, nil, agentStateKeys, func() Spec { return &AgentSpec{} }},
	{StateTerminal, nil, terminalStateKeys, func() Spec { return &TerminalSpec{} }},
	{StateParallel, nil, parallelStateKeys, func() Spec { return &ParallelSpec{} }},
	{StateForEach, nil, forEachStateKeys, func() Spec { return &ForEachSpec{} }},
	{StateWhile, nil, whileStateKeys, func() Spec { return &WhileSpec{} }},
	{StateCallWorkflow, nil, callStateKeys, func() Spec { return &CallSpec{} }},
	{StateOperation, nil, operationStateKeys, func() Spec { return &OperationSpec{} }},
}

// kindOf returns the description of kind t.
func kindOf(t StateType) (kind, bool) {
	for _, k := range kinds {
		if k.typ == t {
			return k, true
		}
	}
	return kind{}, false
}

// Kinds returns every state kind, so the engine can check that it can execute each one.
func Kinds() []StateType {
	out := make([]StateType, len(kinds))
	for i, k := range kinds {
		out[i] = k.typ
	}
	return out
}

// NewSpec returns the empty spec of kind t, or nil when awf knows no such kind. Decoders fill it.
func NewSpec(t StateType) Spec {
	if k, ok := kindOf(t); ok {
		return k.empty()
	}
	return nil
}

// UnknownSpec is what a decoder keeps of a state whose type is missing or unknown: each key it
// read, decoded into the spec of the kind that owns the key. Validation reports the type, and
// still checks the templates, so one round shows every mistake of the state.
type UnknownSpec struct {
	// Word is the type as written ("" when missing).
	Word string
	// Parts are the specs of known kinds holding the keys read, at most one per kind.
	Parts []Spec
}

// Kind is the word as written: no executor answers to it.
func (u *UnknownSpec) Kind() StateType { return StateType(u.Word) }

// validate leaves the kind's rules alone: with the type unknown, they would only guess.
func (u *UnknownSpec) validate(*validator, *State) {}

func (u *UnknownSpec) templates() []templateField {
	var out []templateField
	for _, p := range u.Parts {
		out = append(out, p.templates()...)
	}
	return out
}

// spec returns the state's spec for its type: Spec when it matches the type, the kind's empty
// spec when Spec is nil or of another kind, nil for a type awf does not know and no UnknownSpec.
func (s *State) spec() Spec {
	if s.Spec != nil && s.Spec.Kind() == s.Type {
		return s.Spec
	}
	return NewSpec(s.Type)
}

// Command returns the spec of a command state, nil for any other kind.
func (s *State) Command() *CommandSpec {
	c, _ := s.spec().(*CommandSpec)
	return c
}

// Agent returns the spec of an agent state, nil for any other kind.
func (s *State) Agent() *AgentSpec {
	a, _ := s.spec().(*AgentSpec)
	return a
}

// Terminal returns the spec of a terminal state, nil for any other kind.
func (s *State) Terminal() *TerminalSpec {
	t, _ := s.spec().(*TerminalSpec)
	return t
}

// Ends reports whether reaching the state ends the run: it runs nothing and has no transitions.
func (s *State) Ends() bool { return s.Type == StateTerminal }
