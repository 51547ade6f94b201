package validate

import (
	"context"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/toolscan"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// ToolScanner is implemented by registries that scan tool definitions before they are trusted
// (docs/decisions/0013-bridged-mcp-servers.md): the findings on the given tools of a plugin,
// scanned beside the tools of others (the step's other plugins), and the tools held out by a
// high finding that .awf/plugins.lock does not accept.
type ToolScanner interface {
	PluginFindings(ctx context.Context, plugin string, tools, others []string) (findings []toolscan.Finding, held []string, err error)
}

// scan reports the scan of the exposed tools of one plugin entry: a held tool the step names
// is an error (the step would run without it); one a glob matched is a warning (it is left
// out); every other finding is a warning. Texts are escaped by the scan.
func (c *pluginChecker) scan(ctx context.Context, s *workflow.State, m *workflow.MCPProxy, plugin string, pos fault.Position, exposed []string, named map[string]bool) {
	var others []string
	for _, pt := range m.PluginTools {
		if o := strings.TrimSpace(pt.Plugin); o != plugin && c.decls[o].Name == o && !c.decls[o].Disabled {
			others = append(others, o)
		}
	}
	sc, ok := c.reg.(ToolScanner)
	if !ok || len(exposed) == 0 {
		return
	}
	findings, held, err := sc.PluginFindings(ctx, plugin, exposed, others)
	if err != nil {
		return // starting or listing the plugin failed: reported by the operations check
	}
	isHeld := map[string]bool{}
	for _, t := range held {
		isHeld[t] = true
	}
	accept := func(tool string) string {
		return "review the tool's definition (`awf plugins scan`); if you trust it, run `awf plugins lock --accept " +
			toolscan.Escape(plugin) + "/" + toolscan.Escape(tool) + "`"
	}
	for _, f := range findings {
		what := "state %q: [%s %s] plugin %s, tool %s, %s: %s: %s"
		args := []any{s.Name, f.Severity, f.Rule, toolscan.Escape(f.Server), toolscan.Escape(f.Tool), f.Field, f.Message, f.Text}
		switch {
		case isHeld[f.Tool] && f.Severity == toolscan.High && named[f.Tool]:
			c.ds.Errorf(pos, fault.UserMCPProxyToolHeld, accept(f.Tool), what+" (the tool is held out of the step)", args...)
		case isHeld[f.Tool] && f.Severity == toolscan.High:
			c.ds.Warnf(pos, fault.UserMCPProxyToolHeld, accept(f.Tool), what+" (the tool is left out of the step)", args...)
		default:
			c.ds.Warnf(pos, fault.UserMCPProxyToolFinding, accept(f.Tool), what, args...)
		}
	}
}
