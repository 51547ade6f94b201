package plugins

import (
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// mcp returns the instance of a declared, enabled `type: mcp` plugin, creating it on first use;
// ok is false for a gRPC plugin (or an unknown name, which the gRPC path reports).
func (h *Host) mcp(name string) (*mcpInstance, bool, error) {
	m, err := h.Manifest()
	if err != nil {
		return nil, false, err
	}
	spec, found := m.Lookup(name)
	if !found || !spec.isMCP() {
		return nil, false, nil
	}
	if spec.Disabled {
		return nil, true, fault.New(fault.UserMCPProxyPluginDisabled, "plugin %q is disabled in %s", name, m.File).At(spec.Pos).
			WithHint("remove `disabled: true` from its declaration, or stop using it in this workflow")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, true, closedError(name)
	}
	if h.mcps == nil {
		h.mcps = map[string]*mcpInstance{}
	}
	mi, ok := h.mcps[name]
	if !ok {
		mi = newMCPInstance(h, spec)
		h.mcps[name] = mi
	}
	return mi, true, nil
}

// SourceOf names where a plugin's tools come from in activity records: mcp:<name> for a
// bridged MCP server, plugin:<name> for an awf gRPC plugin.
func (h *Host) SourceOf(name string) tool.Source {
	if m, err := h.Manifest(); err == nil {
		if s, ok := m.Lookup(name); ok && s.isMCP() {
			return tool.MCPSource(name)
		}
	}
	return tool.PluginSource(name)
}

// closeMCP stops every MCP server; called by Close.
func (h *Host) closeMCP() {
	h.mu.Lock()
	ms := make([]*mcpInstance, 0, len(h.mcps))
	for _, mi := range h.mcps {
		ms = append(ms, mi)
	}
	h.mu.Unlock()
	for _, mi := range ms {
		mi.stop()
	}
}

// mcpStatus reports an MCP plugin without starting it.
func (h *Host) mcpStatus(name string) Status {
	h.mu.Lock()
	mi := h.mcps[name]
	h.mu.Unlock()
	if mi == nil {
		return Status{Name: name, State: StateNotStarted}
	}
	mi.mu.Lock()
	defer mi.mu.Unlock()
	s := Status{Name: name, State: StateNotStarted, Operations: append([]ports.PluginOperation(nil), mi.ops...), Description: "MCP server"}
	switch {
	case mi.closed:
		s.State = StateStopped
	case mi.sess != nil:
		s.State = StateRunning
		if mi.cmd != nil && mi.cmd.Process != nil {
			s.PID = mi.cmd.Process.Pid
		}
	case mi.failures > 0:
		s.State = StateFailed
	}
	return s
}
