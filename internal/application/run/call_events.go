package run

// callRecorder is the observer of a sub-workflow's walk. It passes each event on to the run's
// observer with the step named after the calling state ("call/step"), so the console, the
// result and the journal show the sub-workflow's steps nested under the call, and it keeps the
// sub-workflow's own results, from which the call's Output and outputs are built.
type callRecorder struct {
	prefix string
	parent Observer
	// states are the sub-workflow's own results by state name; last is the latest one.
	states map[string]StepResult
	order  []string
}

func newCallRecorder(state string, parent Observer) *callRecorder {
	return &callRecorder{prefix: state + "/", parent: parent, states: map[string]StepResult{}}
}

// Observe records the sub-workflow's own steps and relays every event, renamed.
func (r *callRecorder) Observe(e Event) {
	if f, ok := e.(StepFinished); ok {
		r.states[f.Step.Name] = f.Step
		r.order = append(r.order, f.Step.Name)
	}
	r.relay(e)
}

// relay renames e and passes it on; a recorder of a call inside the sub-workflow relays
// through this one without being recorded here.
func (r *callRecorder) relay(e Event) {
	switch e := e.(type) {
	case StepStarted:
		e.Name = r.prefix + e.Name
		r.forward(e)
	case StepRetrying:
		e.Name = r.prefix + e.Name
		r.forward(e)
	case StepOutput:
		e.Name = r.prefix + e.Name
		r.forward(e)
	case StepFinished:
		e.Step.Name = r.prefix + e.Step.Name
		if e.Step.Next != "" {
			e.Step.Next = r.prefix + e.Step.Next
		}
		r.forward(e)
	default:
		r.forward(e)
	}
}

func (r *callRecorder) forward(e Event) {
	if p, ok := r.parent.(*callRecorder); ok {
		p.relay(e)
		return
	}
	if r.parent != nil {
		r.parent.Observe(e)
	}
}

// last is the result of the last step the sub-workflow ran.
func (r *callRecorder) last() (StepResult, bool) {
	if len(r.order) == 0 {
		return StepResult{}, false
	}
	return r.states[r.order[len(r.order)-1]], true
}

// scope rebuilds the sub-workflow's final scope from its recorded results.
func (r *callRecorder) scope(base Scope) Scope {
	for _, name := range r.order {
		base = base.WithState(name, stateDataOf(r.states[name]))
	}
	return base
}

// stateDataOf is what `.states.<name>` holds after a step with result sr.
func stateDataOf(sr StepResult) StateData {
	return StateData{Output: sr.Output, Stderr: sr.Stderr, ExitCode: sr.ExitCode, Status: string(sr.Status), JSON: sr.JSON, Response: sr.Response, Session: sr.Session,
		Exhausted: sr.Exhausted, Iterations: sr.Iterations}
}
