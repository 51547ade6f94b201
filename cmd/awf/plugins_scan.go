package main

import (
	"strings"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/toolscan"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
)

// newPluginsScanCmd is `awf plugins scan [--format text|json|sarif]`: scan what every plugin
// says about its tools before an agent reads it (docs/guide/plugins-and-mcp-servers.md#the-scan).
func newPluginsScanCmd(g *globalFlags) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "scan",
		Short: "Scan every plugin tool's definition for hidden instructions, shadowing and contradictions",
		Long: `Start every enabled plugin of .awf/plugins.yaml and scan each tool's definition (name, title,
description, schema texts, annotations) for invisible or direction-changing characters,
instructions aimed at the model, references to built-in or other servers' tools and to
credential paths, names that shadow another tool, annotations that contradict the name, and
secrets. --format sarif writes SARIF 2.1.0 for code-scanning UIs. Exits non-zero when a tool
has a high finding that .awf/plugins.lock does not accept (it is held out of every step).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format, "text", "json", "sarif"); err != nil {
				return err
			}
			root, err := g.projectRoot()
			if err != nil {
				return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
			}
			h := projectPluginHost(root, zap.NewNop())
			defer func() { _ = h.Close() }()
			rep, err := h.Scan(cmd.Context())
			if err != nil {
				return err
			}
			writeScan(cmd, h, rep, format)
			return heldError(rep)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json or sarif")
	return cmd
}

// writeScan prints the report in format.
func writeScan(cmd *cobra.Command, h *plugins.Host, rep plugins.ScanReport, format string) {
	out := cmd.OutOrStdout()
	switch format {
	case "sarif":
		uri := h.ManifestPath()
		_, _ = out.Write(toolscan.SARIF(rep.Findings, version, func(server string) toolscan.Location {
			return toolscan.Location{URI: uri, Line: rep.Lines[server]}
		}))
	case "json":
		type jsonFinding struct {
			toolscan.Finding
			Held bool `json:"held"`
		}
		list := make([]jsonFinding, 0, len(rep.Findings))
		for _, f := range rep.Findings {
			held := rep.Held(f.Server, f.Tool)
			f.Server, f.Tool = toolscan.Escape(f.Server), toolscan.Escape(f.Tool)
			list = append(list, jsonFinding{f, held})
		}
		_ = writeJSONDoc(out, map[string]any{"findings": list}, false)
	default:
		printFindings(out, rep)
	}
}

// heldError fails the command when a tool is held out, so CI notices.
func heldError(rep plugins.ScanReport) error {
	var held []string
	seen := map[string]bool{}
	for _, f := range rep.Findings {
		key := f.Server + "/" + f.Tool
		if rep.Held(f.Server, f.Tool) && !seen[key] {
			seen[key] = true
			held = append(held, key)
		}
	}
	if len(held) == 0 {
		return nil
	}
	return fault.New(fault.UserMCPProxyToolHeld, "%d tool(s) have high findings and are held out of every step: %s", len(held), escapeAll(held)).
		WithHint("review each definition; to trust one as it is now, run `awf plugins lock --accept <plugin>/<tool>`")
}

// escapeAll escapes server-given names and texts and joins them for one line.
func escapeAll(list []string) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = toolscan.Escape(s)
	}
	return strings.Join(out, ", ")
}
