package validate

import (
	"context"
	"path"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// ToolName is the name a plugin operation's tool takes (tool.PluginToolName, as the plugin tool
// adapter names them).
func ToolName(plugin, op string) string { return tool.PluginToolName(plugin, op) }

// maxToolName is the longest tool name the agent CLIs accept.
const maxToolName = tool.MaxCLIToolName

// isGlob reports whether an expose entry is a pattern (`*`, `get-*`) rather than a name.
func isGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// matching returns the listed names that pattern matches, in listing order.
func matching(pattern string, listed []string) []string {
	var out []string
	for _, l := range listed {
		if ok, _ := path.Match(pattern, l); ok {
			out = append(out, l)
		}
	}
	return out
}

// PinChecker is implemented by registries that pin tools (.awf/plugins.lock); validation then
// reports an exposed tool that is new or changed since the lock (USER.MCP_PROXY.TOOL_CHANGED).
type PinChecker interface {
	CheckPins(ctx context.Context, plugin string, tools []string) error
}

// pins reports drift of the exposed tools of one plugin entry, and tool names too long for the
// agent CLIs.
func (c *pluginChecker) pins(ctx context.Context, s *workflow.State, plugin string, pos fault.Position, listed bool, exposed []string) {
	for _, op := range exposed {
		if n := ToolName(plugin, op); len(n) > maxToolName {
			c.ds.Errorf(pos, fault.UserMCPProxyToolNameTooLong, "rename the plugin in .awf/plugins.yaml to something shorter",
				"tool name %q of state %q is %d characters, more than the %d agent CLIs accept", n, s.Name, len(n), maxToolName)
		}
	}
	pc, ok := c.reg.(PinChecker)
	if !ok || !listed || len(exposed) == 0 {
		return
	}
	if err := pc.CheckPins(ctx, plugin, exposed); err != nil {
		code := fault.CodeOf(err)
		if code == "" {
			code = fault.UserMCPProxyToolChanged
		}
		c.ds.Errorf(pos, code, "review the change, then run `awf plugins lock`", "state %q: %s", s.Name, message(err))
	}
}
