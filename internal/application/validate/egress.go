package validate

import (
	"context"
	"fmt"
	"sort"

	"github.com/awf-dev/awf/internal/domain/egress"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// EgressCheck checks every agent step's `mcp_proxy.sandbox.network: {allow, deny}`
// (docs/decisions/0028-egress-proxy.md): each malformed entry is USER.SANDBOX.INVALID at its
// place, and so is a list on a step whose sandbox is off, where nothing could enforce it.
func EgressCheck() Check {
	return func(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
		var ds fault.Diagnostics
		names := make([]string, 0, len(wf.States))
		for name := range wf.States {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			s := wf.States[name]
			a := s.Agent()
			if a == nil || a.MCPProxy == nil || a.MCPProxy.Sandbox.Egress == nil {
				continue
			}
			checkEgress(&ds, name, a.MCPProxy)
		}
		return ds
	}
}

func checkEgress(ds *fault.Diagnostics, state string, m *workflow.MCPProxy) {
	e := m.Sandbox.Egress
	if m.Sandbox.Mode == "off" {
		ds.Errorf(m.ValueAt("sandbox.network"), fault.UserSandboxInvalid,
			"set mcp_proxy.sandbox.mode: auto or required, or write network: true",
			"state %q lists the network it allows, but its sandbox is off: nothing would enforce the list", state)
	}
	for _, list := range []struct {
		key     string
		entries []string
	}{{"allow", e.Allow}, {"deny", e.Deny}} {
		for i, raw := range list.entries {
			if _, err := egress.ParseEntry(raw); err != nil {
				ds.Errorf(m.ValueAt(fmt.Sprintf("sandbox.network.%s[%d]", list.key, i)), fault.UserSandboxInvalid,
					"write a host name (api.example.com), a wildcard (*.example.com) or an IP address, each with an optional :port",
					"mcp_proxy.sandbox.network.%s of state %q: %v", list.key, state, err)
			}
		}
	}
}

// egressCovers reports whether a step's lists allow a url: MCP server's host and port; rules
// that do not parse allow nothing (their entries are reported by EgressCheck).
func egressCovers(e *workflow.Egress, rawURL string) bool {
	h, ok := egress.HostOfURL(rawURL)
	if !ok {
		return false
	}
	rules, errs := egress.Parse(e.Allow, e.Deny)
	return len(errs) == 0 && rules.Covers(h)
}
