package validate

import (
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// remoteWithoutNetwork reports USER.SANDBOX.REMOTE_PLUGIN when a step whose sandbox cuts the
// network (mcp_proxy.sandbox.network: false, mode not off) exposes an MCP server reached over
// HTTP: awf confines the plugin processes it starts, not a server elsewhere, so the step could
// reach the network through it. An error, not a warning: the step would fail at its start
// anyway (the proxy refuses to connect), and validate says so first, at the plugin's entry.
func (c *pluginChecker) remoteWithoutNetwork(s *workflow.State, plugin string, decl ports.PluginDecl, pos fault.Position) bool {
	m := s.Agent().MCPProxy
	if !decl.Remote || m == nil || m.Sandbox.Network || m.Sandbox.Mode == "off" || m.Sandbox.Mode == "" {
		return false
	}
	if e := m.Sandbox.Egress; e != nil {
		if egressCovers(e, decl.URL) {
			return false
		}
		c.ds.Errorf(pos, fault.UserSandboxRemotePlugin,
			"add the server's host to mcp_proxy.sandbox.network.allow, or serve it as a stdio MCP server (command:)",
			"plugin %q of state %q is an MCP server reached over HTTP (url:) whose host the step's network allow list does not allow", plugin, s.Name)
		return true
	}
	c.ds.Errorf(pos, fault.UserSandboxRemotePlugin,
		"serve it as a stdio MCP server (command:) so awf can start it without network, or set mcp_proxy.sandbox.network: true",
		"plugin %q of state %q is an MCP server reached over HTTP (url:), which mcp_proxy.sandbox.network: false cannot cut off", plugin, s.Name)
	return true
}
