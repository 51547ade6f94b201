package diagram

import (
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

// inlineFailurePrefix starts the name the loader gives the hidden terminal of an inline
// `on_failure: {message: ...}` (yamlrepo.InlineFailurePrefix; application may not import it).
const inlineFailurePrefix = "__inline_error_"

// describe gives the node kind of s and the lines drawn under its name.
func describe(s *workflow.State) (Kind, []string) {
	switch s.Type {
	case workflow.StateCommand:
		return KindCommand, []string{"command"}
	case workflow.StateAgent:
		return KindAgent, agentDetail(s.Agent())
	case workflow.StateTerminal:
		return terminal(s)
	case workflow.StateParallel:
		return KindParallel, []string{"parallel (" + string(s.Parallel().EffectiveStrategy()) + ")"}
	case workflow.StateForEach:
		return KindForEach, []string{"for_each" + loopBound(s.Loop())}
	case workflow.StateWhile:
		return KindWhile, []string{"while" + loopBound(s.Loop())}
	case workflow.StateCallWorkflow:
		return KindCall, []string{"call_workflow: " + s.Call().Workflow}
	case workflow.StateOperation:
		return KindOperation, []string{"operation: " + s.Operation().Operation}
	}
	return KindUnknown, []string{fmt.Sprintf("unknown type %q", string(s.Type))}
}

func terminal(s *workflow.State) (Kind, []string) {
	t := s.Terminal()
	detail := []string{"success"}
	kind := KindSuccess
	if t.Failed() {
		kind, detail = KindFailure, []string{"failure"}
	}
	if strings.HasPrefix(s.Name, inlineFailurePrefix) {
		detail[0] = "inline on_failure"
	}
	return kind, detail
}

func loopBound(l *workflow.LoopSpec) string {
	switch {
	case l.MaxIterationsExpr != "":
		return " (max " + l.MaxIterationsExpr + ")"
	case l.MaxIterations > 0:
		return fmt.Sprintf(" (max %d)", l.MaxIterations)
	}
	return ""
}

// agentDetail names the provider and, when the MCP proxy is on, how many plugin tools it exposes
// and which intent variants it allows.
func agentDetail(a *workflow.AgentSpec) []string {
	out := []string{"agent: " + a.Provider}
	if m := a.MCPProxy; m != nil && m.Enable {
		n := 0
		for _, p := range m.PluginTools {
			n += len(p.Expose)
		}
		allow := make([]string, 0, len(m.Intent.Allow))
		for _, v := range m.Intent.Allow {
			allow = append(allow, string(v))
		}
		out = append(out, fmt.Sprintf("proxy: %d tools / allow [%s]", n, strings.Join(allow, ", ")))
	}
	return out
}
