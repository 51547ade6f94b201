package options

import (
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// isolationHint is the way out of the UNSUPPORTED_PROVIDER warning.
const isolationHint = "set intercept_builtins: false to silence this if the CLI's own tools are acceptable here, " +
	"or use a provider awf can isolate (" + workflow.ProviderClaude + ", " + workflow.ProviderGemini + ")"

// CheckSteps validates every agent step of wf that uses provider: each option problem becomes
// an error at the option's key (or value, for a bad value). When isolation is given, a step
// whose proxy cannot be fully isolated on this provider gets the
// USER.MCP_PROXY.UNSUPPORTED_PROVIDER warning naming what remains. Providers wrap it into a
// validate.Check-shaped CheckWorkflow.
func CheckSteps(wf *workflow.Workflow, provider string, validate func(map[string]any) []Problem, isolation func(intercept bool) string) fault.Diagnostics {
	var ds fault.Diagnostics
	if wf == nil {
		return ds
	}
	for _, name := range wf.Order {
		st := wf.States[name]
		if st == nil || st.Agent() == nil || st.Agent().Provider != provider {
			continue
		}
		for _, p := range validate(st.Agent().Options) {
			pos := st.KeyAt("options." + p.Key)
			if p.Err.Code == fault.UserAgentInvalidOption {
				pos = st.ValueAt("options." + p.Key)
			}
			ds.Errorf(pos, p.Err.Code, p.Err.Hint, "step %q: %s", name, p.Err.Message)
		}
		if px := st.Agent().MCPProxy; px != nil && px.Enable && isolation != nil {
			if w := isolation(px.InterceptBuiltins); w != "" {
				ds.Warnf(px.KeyAt("intercept_builtins"), fault.UserMCPProxyUnsupportedProvider,
					isolationHint,
					"step %q: %s", name, w)
			}
		}
	}
	return ds
}
