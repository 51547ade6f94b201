package stepproxy

import (
	"fmt"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/activity"
)

// confinedCalls counts a step's Bash calls by how the kernel confined them, for the step
// summary (docs/decisions/0012-kernel-sandbox.md): "; Bash sandboxed: 3 read (Landlock ABI 7, no network)" or, when the
// sandbox could not be enforced, "; Bash NOT sandboxed: 2 calls (<reason>)".
type confinedCalls struct {
	policies   map[string]int
	abi        int
	noNetwork  bool
	unconfined int
	reason     string
}

func (c *confinedCalls) add(r activity.Record) {
	sb := r.Sandbox
	if sb == nil {
		return
	}
	if !sb.Enforced {
		c.unconfined++
		c.reason = sb.Reason
		return
	}
	if c.policies == nil {
		c.policies = map[string]int{}
	}
	c.policies[sb.Policy]++
	c.abi = sb.ABI
	c.noNetwork = c.noNetwork || !sb.Network
}

func (c confinedCalls) String() string {
	var out string
	if len(c.policies) > 0 {
		keys := make([]string, 0, len(c.policies))
		for k := range c.policies {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%d %s", c.policies[k], k))
		}
		net := ""
		if c.noNetwork {
			net = ", no network"
		}
		out += fmt.Sprintf("; Bash sandboxed: %s (Landlock ABI %d%s)", strings.Join(parts, ", "), c.abi, net)
	}
	if c.unconfined > 0 {
		out += fmt.Sprintf("; Bash NOT sandboxed: %d call(s) (%s)", c.unconfined, c.reason)
	}
	return out
}
