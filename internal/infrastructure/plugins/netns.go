package plugins

import "github.com/awf-dev/awf/internal/domain/fault"

// refuseRemote is the error for an MCP server reached by url: when the step has no network:
// awf cannot confine a server it does not start, so it does not connect at all.
func (h *Host) refuseRemote(s Spec) error {
	if !h.opts.NoNetwork || s.Type != TypeMCP || s.MCP.URL == "" {
		return nil
	}
	if h.opts.RemoteAllowed != nil && h.opts.RemoteAllowed(s.MCP.URL) {
		return nil
	}
	return fault.New(fault.UserSandboxRemotePlugin, "MCP plugin %q is reached over HTTP (%s), and this step has no network (mcp_proxy.sandbox.network: false)", s.Name, s.MCP.URL).
		At(s.Pos).WithHint("serve it as a stdio MCP server (command:), or give the step network: true")
}
