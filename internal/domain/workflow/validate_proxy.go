package workflow

import (
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/tool"
)

var variantNames = func() []string {
	out := make([]string, len(tool.Variants))
	for i, v := range tool.Variants {
		out[i] = string(v)
	}
	return out
}()

// proxy checks the mcp_proxy block of an agent state on its own. Whether the plugins and
// operations exist is for the validators that can see the plugin registry.
func (v *validator) proxy(s *State, m *MCPProxy) {
	if !m.Enable {
		if _, explicit := m.KeyPos["enable"]; !explicit && (len(m.KeyPos) > 0 || len(m.PluginTools) > 0) {
			v.ds.Warnf(m.Pos, fault.UserMCPProxyNotEnabled, "add `enable: true` under `mcp_proxy:`, or remove the block",
				"mcp_proxy of state %q is ignored: it does not say `enable: true`", s.Name)
		}
	}
	if m.Enable && !m.InterceptBuiltins && len(m.PluginTools) == 0 {
		v.ds.Errorf(m.Pos, fault.UserMCPProxyEmptyProxy,
			"add `plugin_tools:` to expose plugin operations, or remove `intercept_builtins: false` so awf serves its built-in tools",
			"mcp_proxy of state %q would serve no tool: built-ins are not intercepted and no plugin_tools are listed", s.Name)
	}
	for i, pt := range m.PluginTools {
		item := fmt.Sprintf("plugin_tools[%d]", i)
		if strings.TrimSpace(pt.Plugin) == "" {
			v.ds.Errorf(pluginPos(m, pt, item), fault.UserMCPProxyMissingPlugin, "add `plugin: <name>` naming a plugin declared in .awf/plugins.yaml",
				"plugin_tools entry #%d of state %q names no plugin", i+1, s.Name)
		}
		if len(pt.Expose) == 0 {
			pos := m.ValueAt(item)
			if p, ok := m.KeyPos[item+".expose"]; ok {
				pos = p
			}
			v.ds.Errorf(pos, fault.UserMCPProxyEmptyExpose, "list the operations to expose, e.g. `expose: [search]`",
				"plugin_tools entry #%d of state %q exposes no operation", i+1, s.Name)
		}
		for j, op := range pt.Expose {
			if strings.TrimSpace(op) != "" {
				continue
			}
			pos := m.ValueAt(fmt.Sprintf("%s.expose[%d]", item, j))
			if j < len(pt.ExposePos) && pt.ExposePos[j].Valid() {
				pos = pt.ExposePos[j]
			}
			v.ds.Errorf(pos, fault.UserMCPProxyEmptyExpose, "write the operation's name as the plugin lists it",
				"plugin_tools entry #%d of state %q exposes an operation with an empty name", i+1, s.Name)
		}
	}
	v.intent(s, m)
}

func pluginPos(m *MCPProxy, pt PluginTools, item string) fault.Position {
	if pt.Pos.Valid() {
		return pt.Pos
	}
	return m.ValueAt(item)
}

func (v *validator) intent(s *State, m *MCPProxy) {
	if _, written := m.KeyPos["intent.allow"]; written && len(m.Intent.Allow) == 0 {
		v.ds.Errorf(m.ValueAt("intent.allow"), fault.UserMCPProxyInvalidIntent,
			"list at least one of read, write, destructive, or remove `allow:` to allow all three",
			"intent.allow of state %q is empty: the step could call no tool", s.Name)
	}
	for j, a := range m.Intent.Allow {
		if a.Valid() {
			continue
		}
		v.ds.Errorf(m.ValueAt(fmt.Sprintf("intent.allow[%d]", j)), fault.UserMCPProxyInvalidIntent, suggest.DidYouMean(string(a), variantNames),
			"intent.allow of state %q lists %q, which is not a variant (read, write or destructive)", s.Name, a)
	}
	v.ask(s, m)
}

// ask checks intent.ask: each entry a variant the step also allows, since a call of a variant
// not allowed is refused before anyone could be asked.
func (v *validator) ask(s *State, m *MCPProxy) {
	for j, a := range m.Intent.Ask {
		at := m.ValueAt(fmt.Sprintf("intent.ask[%d]", j))
		switch {
		case !a.Valid():
			v.ds.Errorf(at, fault.UserMCPProxyInvalidIntent, suggest.DidYouMean(string(a), variantNames),
				"intent.ask of state %q lists %q, which is not a variant (read, write or destructive)", s.Name, a)
		case !m.Intent.Allows(a):
			v.ds.Errorf(at, fault.UserMCPProxyAskNotAllowed, fmt.Sprintf("add %s to intent.allow, or remove it from intent.ask", a),
				"intent.ask of state %q lists %q, which intent.allow does not allow: its calls are refused before anyone could approve them", s.Name, a)
		}
	}
	if m.Intent.ApprovalTimeout < 0 {
		v.ds.Errorf(m.ValueAt("intent.approval_timeout"), fault.UserMCPProxyInvalidIntent, "write a positive duration such as 2m",
			"intent.approval_timeout of state %q is negative", s.Name)
	}
}
