package workflow

// whileStateKeys are the keys of a while state besides the common ones.
var whileStateKeys = append([]string{"while"}, loopKeys...)

// WhileSpec runs its body while a condition holds, at most max_iterations times.
type WhileSpec struct {
	LoopSpec
	// While is checked before each iteration; "" means always (the loop then ends by
	// break_when, a transition out of the body, or max_iterations).
	While string
}

// Kind implements Spec.
func (*WhileSpec) Kind() StateType { return StateWhile }

func (w *WhileSpec) validate(v *validator, s *State) { w.validateLoop(v, s) }

func (w *WhileSpec) templates() []templateField { return w.loopTemplates() }
