package usecase

import (
	"slices"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

// keyVariables are the variables wf's agent steps keep their model keys in (options.api_key_env):
// their values are secrets whatever the variables are called, so the run's redactor masks them.
func keyVariables(wf *workflow.Workflow) []string {
	var out []string
	for _, name := range wf.Order {
		st := wf.States[name]
		if st == nil {
			continue
		}
		a, ok := st.Spec.(*workflow.AgentSpec)
		if !ok {
			continue
		}
		if v, ok := a.Options["api_key_env"].(string); ok && v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
