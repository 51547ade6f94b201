package stepproxy

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"go.opentelemetry.io/otel/propagation"

	"github.com/awf-dev/awf/internal/domain/toolset"
)

// ApprovalsDirName is the directory of a run where calls held for approval wait
// (internal/infrastructure/approvals reads and writes it).
const ApprovalsDirName = "approvals"

// Spec builds what one step's proxy serves. It is the one builder behind `awf run` and
// `awf call --workflow --step`, so both hide the step's api_key_env variable from Bash, forward
// the run's OTEL_* variables and hand the step's trace context to the proxy. A step without an
// mcp_proxy block gets the defaults: the built-ins, the default intent rule, no plugin tools.
func (s *Service) Spec(ctx context.Context, st Step) toolset.Spec {
	spec := toolset.Spec{
		Root:         st.Dir,
		Builtins:     true,
		Intent:       toolset.DefaultIntent(),
		ActivityFile: s.ActivityFile,
		LogFile:      s.LogFile,
		RunID:        s.RunID,
		Step:         st.Name,
		PluginsFile:  s.PluginsFile,
		OTelEnv:      s.otelEnv(),
		Traceparent:  traceparent(ctx),
		Sandbox:      toolset.DefaultSandbox(),
	}
	if p := st.Proxy; p != nil {
		spec.Builtins = p.InterceptBuiltins
		if p.Sandbox.Mode != "" {
			spec.Sandbox = toolset.Sandbox{Mode: p.Sandbox.Mode, Network: p.Sandbox.Network, Writable: slices.Clone(p.Sandbox.Writable),
				Readable: slices.Clone(p.Sandbox.Readable)}
			if e := p.Sandbox.Egress; e != nil {
				spec.Sandbox.Egress = &toolset.Egress{Allow: slices.Clone(e.Allow), Deny: slices.Clone(e.Deny)}
			}
		}
		spec.Intent = toolset.Intent{
			Split:              p.Intent.Split,
			Allow:              slices.Clone(p.Intent.Allow), // nil (all) and empty (none) kept apart
			Strict:             p.Intent.StrictServerValidation,
			RequireDeclaration: p.Intent.RequireDeclaration,
			Ask:                slices.Clone(p.Intent.Ask),
			ApprovalTimeout:    p.Intent.ApprovalTimeout,
		}
		if len(spec.Intent.Ask) > 0 && s.ActivityFile != "" {
			// Held calls wait in the run directory, beside the activity file, where `awf serve`
			// and `awf run` look for them.
			spec.ApprovalsDir = filepath.Join(filepath.Dir(s.ActivityFile), ApprovalsDirName)
		}
		spec.EnvPassthrough = slices.Clone(p.EnvPassthrough)
		for _, pt := range p.PluginTools {
			spec.PluginTools = append(spec.PluginTools, toolset.PluginTools{Plugin: pt.Plugin, Expose: slices.Clone(pt.Expose)})
		}
	}
	if s.PluginCommands != nil && spec.PluginsFile != "" {
		spec.PluginCommands = s.PluginCommands(spec.PluginsFile)
		if spec.PluginCommands == nil {
			spec.PluginCommands = []string{} // resolved: none declared
		}
	}
	// A step may keep its model key in a variable of its own choosing; the agent's Bash must not
	// be able to print it.
	if name, ok := st.Options["api_key_env"].(string); ok && name != "" {
		spec.HideEnv = append(spec.HideEnv, name)
	}
	return spec
}

// otelEnv is the run's OTEL_* variables; nil when there are none.
func (s *Service) otelEnv() map[string]string {
	if s.Env == nil {
		return nil
	}
	var out map[string]string
	for _, kv := range s.Env.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "OTEL_") {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}

// traceparent is ctx's span context in W3C form; empty when ctx carries no valid span.
func traceparent(ctx context.Context) string {
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier["traceparent"]
}
