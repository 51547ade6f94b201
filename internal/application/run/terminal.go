package run

import (
	"context"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

// terminalExecutor ends the run in a terminal state, with its rendered message on failure.
type terminalExecutor struct{}

// Execute reports how the run ends. A message that does not render is left out: the run has
// already failed, and a broken message must not hide why.
func (terminalExecutor) Execute(_ context.Context, st *workflow.State, scope Scope, _ Steps) (Outcome, error) {
	spec := st.Terminal()
	end := End{Failed: spec.Failed()}
	if end.Failed && spec.Message != "" {
		if m, err := render(st.Name+".message", spec.Message, scope, st.KeyPos["message"]); err == nil {
			end.Message = m
		}
	}
	return Outcome{Then: EndRun(end)}, nil
}
