package workflow

import "slices"

// KeyVariables are the variables w's agent steps keep their model keys in (options.api_key_env),
// each once, in step order. Their values are secrets whatever the variables are called, so a
// run's redactor masks them, and so does the report of the run. A nil workflow has none.
func (w *Workflow) KeyVariables() []string {
	if w == nil {
		return nil
	}
	var out []string
	for _, name := range w.Order {
		st := w.States[name]
		if st == nil {
			continue
		}
		a, ok := st.Spec.(*AgentSpec)
		if !ok {
			continue
		}
		if v, ok := a.Options["api_key_env"].(string); ok && v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
