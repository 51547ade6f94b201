package yamlrepo

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// egressKeys are the keys of mcp_proxy.sandbox.network in its list form
// (docs/decisions/0028-egress-proxy.md).
var egressKeys = []string{"allow", "deny"}

// egress decodes `network: {allow: [...], deny: [...]}`; the entries themselves are checked by
// validate (package egress), where their positions are recorded as sandbox.network.allow[i].
func (l *loader) egress(n *yaml.Node, pm posMaps) *workflow.Egress {
	e := &workflow.Egress{Allow: []string{}}
	b := block{"mcp_proxy.sandbox.network", "`network: {allow: [api.example.com, \"*.pypi.org:443\"]}`", egressKeys, fault.UserSandboxInvalid, "in mcp_proxy.sandbox.network"}
	l.fields(n, b, pm, "sandbox.network.", func(f entry) {
		list, pos, _ := l.strList(f.V, "sandbox.network."+f.Key, "`"+f.Key+": [api.example.com]`")
		for j, p := range pos {
			pm.values[fmt.Sprintf("sandbox.network.%s[%d]", f.Key, j)] = p
		}
		if f.Key == "allow" {
			e.Allow = list
		} else {
			e.Deny = list
		}
	})
	return e
}
