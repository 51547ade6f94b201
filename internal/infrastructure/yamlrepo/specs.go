package yamlrepo

import "github.com/awf-dev/awf/internal/domain/workflow"

// stateSpecs holds the specs one state's keys are decoded into: its own kind's, and one per
// other kind whose keys the state wrongly has. Those keys are still decoded, so a bad value is
// reported along with the key being in the wrong place; for a state of unknown type they are
// all kept, so validation can still check their templates.
type stateSpecs struct {
	typ   workflow.StateType
	own   workflow.Spec // nil for an unknown or missing type
	other map[workflow.StateType]workflow.Spec
	order []workflow.Spec // the other specs in the order they were made
}

func newStateSpecs(t workflow.StateType) *stateSpecs {
	return &stateSpecs{typ: t, own: workflow.NewSpec(t), other: map[workflow.StateType]workflow.Spec{}}
}

// owner returns the spec that decodes key: the state's own when its kind accepts the key,
// otherwise that of the first kind that does.
func (ss *stateSpecs) owner(key string) workflow.Spec {
	if ss.own != nil && contains(workflow.StateKeys(ss.typ), key) {
		return ss.own
	}
	for _, k := range workflow.Kinds() {
		if !contains(workflow.StateKeys(k), key) {
			continue
		}
		if sp, ok := ss.other[k]; ok {
			return sp
		}
		sp := workflow.NewSpec(k)
		ss.other[k] = sp
		ss.order = append(ss.order, sp)
		return sp
	}
	return nil
}

// result is the state's Spec: its own kind's, or an UnknownSpec holding whatever was decoded.
func (ss *stateSpecs) result() workflow.Spec {
	if ss.own != nil {
		return ss.own
	}
	return &workflow.UnknownSpec{Word: string(ss.typ), Parts: ss.order}
}
