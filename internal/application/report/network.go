package report

import (
	"fmt"
	"net"
	"strconv"

	"github.com/awf-dev/awf/internal/domain/activity"
)

// asConnection fills a row for a connection through the step's egress proxy
// (docs/decisions/0028-egress-proxy.md): it sits on the step's timeline beside the tool calls,
// its tool reads "network", its arguments what it reached and how many bytes moved, its
// decision the rule that decided. It reports whether r is a connection.
func asConnection(r activity.Record, c *Call, t text) bool {
	n := r.Network
	if n == nil {
		return false
	}
	target := net.JoinHostPort(n.Host, strconv.Itoa(n.Port)) + n.Path
	if n.Method != "" {
		target = n.Method + " " + target
	}
	c.Tool = "network"
	c.Source = t.line(n.Protocol, 40)
	c.Variant, c.Declared, c.ToolVariant = "", "", ""
	c.Args = t.line(fmt.Sprintf("%s (in %d B, out %d B)", target, n.BytesIn, n.BytesOut), CellExcerpt)
	c.Decision = t.line(n.Decision+": "+n.Rule, CellExcerpt)
	return true
}
