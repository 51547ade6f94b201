//go:build !linux

package plugins

import (
	"os/exec"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// isolateNetwork refuses to start a plugin without network where awf has no network
// namespaces: nothing is ever half-applied.
func (h *Host) isolateNetwork(*exec.Cmd) error {
	if !h.opts.NoNetwork {
		return nil
	}
	return fault.New(fault.UserSandboxUnavailable, "mcp_proxy.sandbox.network: false needs Linux network namespaces to start plugins without network")
}
