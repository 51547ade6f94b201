package yamlrepo

import (
	"fmt"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"

	"github.com/awf-dev/awf/internal/infrastructure/strictyaml"
)

// The mcp_proxy schema (docs/design.md#the-mcp-proxy, docs/design.md#the-intent-rule).
var (
	proxyKeys      = []string{"enable", "intercept_builtins", "plugin_tools", "intent", "env_passthrough", "sandbox"}
	pluginToolKeys = []string{"plugin", "expose"}
	intentKeys     = []string{"split", "allow", "strict_server_validation", "require_declaration", "ask", "approval_timeout"}
)

// maxTimeout bounds a step timeout or a retry delay: a week is beyond any step, and larger
// numbers overflow.
const maxTimeout = 7 * 24 * time.Hour

// timeout reads a step's `timeout`.
func (l *loader) timeout(n *yaml.Node) time.Duration { return l.duration(n, "timeout") }

// duration reads a Go duration ("30s", "500ms", "1h30m") or a whole number of seconds (120, as
// the reference awf's workflows write it). A bad one is reported at the value and yields 0.
func (l *loader) duration(n *yaml.Node, what string) time.Duration {
	r := l.Resolve(n)
	if strictyaml.IsNull(r) {
		return 0
	}
	const hint = "write seconds as a number (120) or a Go duration with a unit, such as 30s, 500ms or 1h30m"
	if r.Kind != yaml.ScalarNode {
		l.Diags.Errorf(l.Pos(n), fault.UserWorkflowInvalidTimeout, hint, "%s must be a duration, got %s", what, strictyaml.KindName(r))
		return 0
	}
	if secs, err := strconv.ParseInt(r.Value, 10, 64); err == nil {
		if secs < 0 || secs > int64(maxTimeout/time.Second) {
			l.Diags.Errorf(l.Pos(n), fault.UserWorkflowInvalidTimeout, hint, "%s %s is out of range (0 to %d seconds)", what, r.Value, int64(maxTimeout/time.Second))
			return 0
		}
		return time.Duration(secs) * time.Second
	}
	d, err := time.ParseDuration(r.Value)
	if err != nil {
		l.Diags.Errorf(l.Pos(n), fault.UserWorkflowInvalidTimeout, hint, "%s %q is not a duration", what, r.Value)
		return 0
	}
	return d
}

// proxy decodes an mcp_proxy block, applying the defaults of docs/design.md#the-mcp-proxy: intercept_builtins true,
// every variant allowed, strict server validation.
func (l *loader) proxy(e entry) (*workflow.MCPProxy, posMaps) {
	pm := newPosMaps()
	m := &workflow.MCPProxy{InterceptBuiltins: true, Intent: workflow.DefaultIntent(), Sandbox: workflow.DefaultSandbox(), Pos: l.Pos(e.K), KeyPos: pm.keys, ValuePos: pm.values}
	b := block{"mcp_proxy", "`mcp_proxy: {enable: true}`", proxyKeys, fault.UserMCPProxyUnknownKey, "in mcp_proxy"}
	l.fields(e.V, b, pm, "", func(f entry) {
		switch f.Key {
		case "enable":
			m.Enable = l.boolean(f.V, "mcp_proxy.enable", false)
		case "intercept_builtins":
			m.InterceptBuiltins = l.boolean(f.V, "mcp_proxy.intercept_builtins", true)
		case "plugin_tools":
			var ok bool
			if m.PluginTools, ok = l.pluginTools(f.V, pm); !ok {
				l.hush(e.K) // where "the proxy would serve no tool" would be reported
			}
		case "intent":
			l.intent(f.V, pm, &m.Intent)
		case "env_passthrough":
			m.EnvPassthrough, _, _ = l.strList(f.V, "mcp_proxy.env_passthrough", "`env_passthrough: [GITHUB_TOKEN]`")
		case "sandbox":
			l.sandbox(f.V, pm, &m.Sandbox)
		}
	})
	return m, pm
}

func (l *loader) pluginTools(n *yaml.Node, pm posMaps) ([]workflow.PluginTools, bool) {
	var out []workflow.PluginTools
	items, ok := l.sequence(n, "plugin_tools", "`- {plugin: echo, expose: [echo]}`")
	for i, item := range items {
		path := fmt.Sprintf("plugin_tools[%d]", i)
		l.record(pm, path, item, item)
		pt := workflow.PluginTools{Pos: l.Pos(item)}
		b := block{fmt.Sprintf("plugin_tools entry #%d", i+1), "`{plugin: echo, expose: [echo]}`", pluginToolKeys, fault.UserMCPProxyUnknownKey, "in a plugin_tools entry"}
		l.fields(item, b, pm, path+".", func(f entry) {
			switch f.Key {
			case "plugin":
				pt.Plugin = l.str(f.V, "plugin")
				pt.Pos = l.Pos(f.V)
			case "expose":
				var ok bool
				if pt.Expose, pt.ExposePos, ok = l.strList(f.V, "expose", "`expose: [search, fetch]`"); !ok {
					l.hush(f.K) // where "exposes no operation" would be reported
				}
				for j, p := range pt.ExposePos {
					pm.keys[fmt.Sprintf("%s.expose[%d]", path, j)] = p
					pm.values[fmt.Sprintf("%s.expose[%d]", path, j)] = p
				}
			}
		})
		out = append(out, pt)
	}
	return out, ok
}

func (l *loader) intent(n *yaml.Node, pm posMaps, s *workflow.IntentSettings) {
	b := block{"mcp_proxy.intent", "`intent: {split: true}`", intentKeys, fault.UserMCPProxyUnknownKey, "in mcp_proxy.intent"}
	l.fields(n, b, pm, "intent.", func(f entry) {
		switch f.Key {
		case "split":
			s.Split = l.boolean(f.V, "intent.split", false)
		case "allow":
			names, pos, _ := l.strList(f.V, "intent.allow", "`allow: [read, write]`")
			s.Allow = make([]tool.Variant, len(names))
			for j, name := range names {
				s.Allow[j] = tool.Variant(name)
				pm.keys[fmt.Sprintf("intent.allow[%d]", j)] = pos[j]
				pm.values[fmt.Sprintf("intent.allow[%d]", j)] = pos[j]
			}
		case "strict_server_validation":
			s.StrictServerValidation = l.boolean(f.V, "intent.strict_server_validation", true)
		case "require_declaration":
			s.RequireDeclaration = l.boolean(f.V, "intent.require_declaration", false)
		case "ask":
			names, pos, _ := l.strList(f.V, "intent.ask", "`ask: [destructive]`")
			s.Ask = make([]tool.Variant, len(names))
			for j, name := range names {
				s.Ask[j] = tool.Variant(name)
				pm.keys[fmt.Sprintf("intent.ask[%d]", j)] = pos[j]
				pm.values[fmt.Sprintf("intent.ask[%d]", j)] = pos[j]
			}
		case "approval_timeout":
			s.ApprovalTimeout = l.duration(f.V, "intent.approval_timeout")
		}
	})
}
