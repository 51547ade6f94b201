package plugins

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/toolscan"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/pluginlock"
)

// scanTool is what the scan reads of one operation: its definition, with the server's
// annotations only (the user's override in plugins.yaml is the user's word, not the server's
// claim, and the MCP defaults are awf's).
func scanTool(plugin string, op ports.PluginOperation) toolscan.Tool {
	t := toolscan.Tool{Server: plugin, Name: op.Name, Title: op.Title, Description: op.Description, OutputDescription: op.OutputDescription,
		InputSchema: op.InputSchema, OutputSchema: op.OutputSchema, AnnotationsTitle: op.Annotations.Title}
	if op.AnnotationsFrom == "" || op.AnnotationsFrom == "server" {
		t.ReadOnlyHint, t.DestructiveHint = op.Annotations.ReadOnlyHint, op.Annotations.DestructiveHint
	}
	return t
}

// ScanReport is the scan of every enabled plugin: its findings, and for each tool with a high
// one whether the lock accepts it as it is now.
type ScanReport struct {
	Findings []toolscan.Finding
	// Accepted holds "<plugin>/<tool>" for the tools whose high findings the lock accepts.
	Accepted map[string]bool
	// Lines are where each plugin is declared in plugins.yaml, for SARIF.
	Lines map[string]int
}

// Held reports whether the tool of plugin has a high finding the lock does not accept.
func (r ScanReport) Held(plugin, tool string) bool {
	return toolscan.HasHigh(r.Findings, plugin, tool) && !r.Accepted[plugin+"/"+tool]
}

// Scan starts every enabled plugin and scans every tool it lists (docs/guide/plugins-and-mcp-servers.md#the-scan).
func (h *Host) Scan(ctx context.Context) (ScanReport, error) {
	m, err := h.Manifest()
	if err != nil {
		return ScanReport{}, err
	}
	lock, _, err := h.ReadLock()
	if err != nil {
		return ScanReport{}, err
	}
	rep := ScanReport{Accepted: map[string]bool{}, Lines: map[string]int{}}
	var tools []toolscan.Tool
	for _, s := range m.Specs {
		if s.Disabled {
			continue
		}
		rep.Lines[s.Name] = s.Pos.Line
		ops, err := h.Operations(ctx, s.Name)
		if err != nil {
			return ScanReport{}, err
		}
		pins, err := h.currentPins(ctx, s.Name)
		if err != nil {
			return ScanReport{}, err
		}
		for _, op := range ops {
			tools = append(tools, scanTool(s.Name, op))
			if lock.IsAccepted(s.Name, op.Name, pins[op.Name].Fingerprint) {
				rep.Accepted[s.Name+"/"+op.Name] = true
			}
		}
	}
	rep.Findings = toolscan.Scan(tools)
	return rep, nil
}

// ManifestPath is plugins.yaml relative to the project root (slash-separated), where SARIF
// places findings.
func (h *Host) ManifestPath() string {
	rel, err := filepath.Rel(h.opts.Root, h.manifestFile())
	if err != nil {
		return filepath.ToSlash(h.manifestFile())
	}
	return filepath.ToSlash(rel)
}

// PluginFindings scans the listed tools of one plugin beside every tool of others (the other
// plugins of the same step: the tools an agent sees together) and returns the findings on
// tools, and the tools held out: a high finding the lock does not accept for the tool as it
// is now. High rules look at one tool alone, so this gates as `awf plugins lock` did.
func (h *Host) PluginFindings(ctx context.Context, plugin string, tools, others []string) (findings []toolscan.Finding, held []string, err error) {
	ops, err := h.Operations(ctx, plugin)
	if err != nil {
		return nil, nil, err
	}
	want := map[string]bool{}
	for _, t := range tools {
		want[t] = true
	}
	var scan []toolscan.Tool
	for _, op := range ops {
		if want[op.Name] {
			scan = append(scan, scanTool(plugin, op))
		}
	}
	for _, o := range others {
		if o == plugin {
			continue
		}
		oops, err := h.Operations(ctx, o)
		if err != nil {
			continue // the other plugin's own check reports it
		}
		for _, op := range oops {
			scan = append(scan, scanTool(o, op))
		}
	}
	for _, f := range toolscan.Scan(scan) {
		if f.Server == plugin {
			findings = append(findings, f)
		}
	}
	if len(findings) == 0 {
		return nil, nil, nil
	}
	lock, _, err := h.ReadLock()
	if err != nil {
		return nil, nil, err
	}
	pins, err := h.currentPins(ctx, plugin)
	if err != nil {
		return nil, nil, err
	}
	for _, t := range tools {
		if toolscan.HasHigh(findings, plugin, t) && !lock.IsAccepted(plugin, t, pins[t].Fingerprint) && !contains(held, t) {
			held = append(held, t)
		}
	}
	return findings, held, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// HeldOut returns, of the tools a step exposes, those held out by a high finding, each with
// why and how to accept it; the plugin tool adapter leaves them out of the step.
func (h *Host) HeldOut(ctx context.Context, plugin string, tools []string) (map[string]string, error) {
	findings, held, err := h.PluginFindings(ctx, plugin, tools, nil)
	if err != nil || len(held) == 0 {
		return nil, err
	}
	out := make(map[string]string, len(held))
	for _, t := range held {
		out[t] = HeldMessage(plugin, t, findings)
		h.opts.Logger.Warn(out[t], zap.String("plugin", plugin), zap.String("code", fault.UserMCPProxyToolHeld))
	}
	return out, nil
}

// HeldMessage says why a tool is held and how to accept it; names and texts are escaped.
func HeldMessage(plugin, tool string, findings []toolscan.Finding) string {
	var rules []string
	for _, f := range findings {
		if f.Tool == tool && f.Severity == toolscan.High {
			rules = append(rules, f.Rule+" in "+f.Field+": "+f.Message+": "+f.Text)
		}
	}
	sort.Strings(rules)
	return fmt.Sprintf("tool %s of plugin %s is held out of the step (%s); review its definition (`awf plugins scan`) and, if you trust it, run `awf plugins lock --accept %s/%s`",
		toolscan.Escape(tool), toolscan.Escape(plugin), strings.Join(rules, "; "), toolscan.Escape(plugin), toolscan.Escape(tool))
}

// WriteLock pins every tool of every enabled plugin into the lock file, keeping the
// acceptances of tools that have not changed and adding those of accept ("<plugin>/<tool>").
func (h *Host) WriteLock(ctx context.Context, accept ...string) (pluginlock.Lock, error) {
	l, err := h.Pins(ctx)
	if err != nil {
		return l, err
	}
	if old, ok, err := h.ReadLock(); err == nil && ok {
		pluginlock.CarryAccepted(old, l)
	}
	for _, a := range accept {
		plugin, tool, ok := strings.Cut(a, "/")
		if !ok || plugin == "" || tool == "" {
			return l, fault.New(fault.UserCLIInvalidArgs, "--accept %q is not <plugin>/<tool>", toolscan.Escape(a)).
				WithHint("write the plugin's name in .awf/plugins.yaml and the tool's name as `awf plugins list` shows it, e.g. --accept github/delete_repo")
		}
		if err := l.Accept(plugin, tool); err != nil {
			return l, err
		}
	}
	return l, pluginlock.Write(h.LockFile(), l)
}
