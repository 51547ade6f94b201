package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/logging"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/tools/pluginadapter"
)

func newPluginsCmd(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "Inspect the plugins declared in .awf/plugins.yaml",
	}
	var (
		format  string
		noStart bool
	)
	list := &cobra.Command{
		Use:   "list",
		Short: "List declared plugins with their state and operations (starts them to ask)",
		Long: `List the plugins of .awf/plugins.yaml: name, state, version and, for each operation, the tool
name a step would expose (<plugin>_<operation>), the variant it must be called with (read, write,
destructive, from its annotations) and its annotation hints, with the number of scan findings
on a plugin's tools and "(held)" on a tool a high finding keeps out of every step (awf plugins
scan shows them). Plugins are started to list their operations and stopped afterwards;
--no-start shows the declarations only.
Exit 0, or 3 when a declared plugin failed to start.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			return listPlugins(cmd, g, format, !noStart)
		},
	}
	list.Flags().StringVar(&format, "format", "text", "output format: text or json")
	list.Flags().BoolVar(&noStart, "no-start", false, "do not start plugins; show declarations only")
	cmd.AddCommand(list, newPluginsLockCmd(g), newPluginsScanCmd(g))
	return cmd
}

// listPlugins prints the project's plugins, starting them when start is set to ask for their
// operations; exit 3 when one failed to start.
func listPlugins(cmd *cobra.Command, g *globalFlags, format string, start bool) error {
	root, err := g.projectRoot()
	if err != nil {
		return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
	}
	level := zapcore.WarnLevel
	if g.verbose {
		level = zapcore.DebugLevel
	}
	logger, closeLog, err := logging.New(logging.Options{Console: cmd.ErrOrStderr(), ConsoleLevel: level})
	if err != nil {
		return err
	}
	defer func() { _ = closeLog() }()
	host := plugins.New(plugins.Options{Root: root, Logger: logger})
	defer func() { _ = host.Close() }()
	rows, err := pluginRows(cmd.Context(), host, start)
	if err != nil {
		return err
	}
	if format == "json" {
		if err := writeJSON(cmd.OutOrStdout(), struct {
			Plugins []pluginRow `json:"plugins"`
		}{rows}); err != nil {
			return err
		}
	} else {
		printPlugins(cmd.OutOrStdout(), rows)
	}
	for _, r := range rows {
		if r.State == string(plugins.StateFailed) {
			return &exitError{code: fault.ExitExecution}
		}
	}
	return nil
}

// pluginRow is one plugin as `awf plugins list` shows it.
type pluginRow struct {
	Name        string `json:"name"`
	State       string `json:"state"`
	Command     string `json:"command"`
	Version     string `json:"version,omitempty"`
	Description string `json:"description,omitempty"`
	Error       string `json:"error,omitempty"`
	// Findings counts the scan's findings on the plugin's tools (docs/guide/plugins-and-mcp-servers.md#the-scan);
	// absent when the plugin was not started, so not scanned.
	Findings   *int           `json:"findings,omitempty"`
	Operations []operationRow `json:"operations"`
}

// operationRow is one operation with the tool it becomes.
type operationRow struct {
	Name        string           `json:"name"`
	Tool        string           `json:"tool"`
	CallWith    tool.Variant     `json:"call_with"`
	Description string           `json:"description,omitempty"`
	Annotations tool.Annotations `json:"annotations"`
	// AnnotationsFrom is server, override or default for a bridged MCP server's tool.
	AnnotationsFrom string `json:"annotations_from,omitempty"`
	// Held says a high scan finding that the lock does not accept keeps the tool out of every
	// step.
	Held bool `json:"held,omitempty"`
}

// pluginRows describes every declared plugin, starting the enabled ones when start is set.
func pluginRows(ctx context.Context, host *plugins.Host, start bool) ([]pluginRow, error) {
	m, err := host.Manifest()
	if err != nil {
		return nil, err
	}
	rows := make([]pluginRow, 0, len(m.Specs))
	for _, spec := range m.Specs {
		row := pluginRow{Name: spec.Name, Command: spec.Command, Operations: []operationRow{}}
		if start && !spec.Disabled {
			if _, err := host.Operations(ctx, spec.Name); err != nil {
				row.Error = err.Error()
			}
		}
		st, err := host.Status(spec.Name)
		if err != nil {
			return nil, err
		}
		row.State, row.Version, row.Description = string(st.State), st.Version, st.Description
		for _, op := range st.Operations {
			row.Operations = append(row.Operations, operationRow{
				Name: op.Name, Tool: tool.PluginToolName(spec.Name, op.Name), CallWith: tool.CallWith(op.Annotations),
				Description: pluginFirstLine(op.Description), Annotations: op.Annotations, AnnotationsFrom: op.AnnotationsFrom,
			})
		}
		rows = append(rows, row)
	}
	if start {
		if err := addFindings(ctx, host, rows); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// addFindings scans the tools of each plugin that started beside those of the others, as
// `awf plugins scan` does, and marks on its row how many findings its tools have and which of
// them are held out of every step.
func addFindings(ctx context.Context, host *plugins.Host, rows []pluginRow) error {
	var started []string
	for _, r := range rows {
		if r.Error == "" && len(r.Operations) > 0 {
			started = append(started, r.Name)
		}
	}
	for i := range rows {
		r := &rows[i]
		if !slices.Contains(started, r.Name) {
			continue
		}
		names := make([]string, len(r.Operations))
		for j, op := range r.Operations {
			names[j] = op.Name
		}
		findings, held, err := host.PluginFindings(ctx, r.Name, names, started)
		if err != nil {
			return err // the lock cannot be read: say so rather than show nothing held
		}
		n := len(findings)
		r.Findings = &n
		for j := range r.Operations {
			r.Operations[j].Held = slices.Contains(held, r.Operations[j].Name)
		}
	}
	return nil
}

func printPlugins(w io.Writer, rows []pluginRow) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "No plugins declared (.awf/plugins.yaml is missing or empty).")
		return
	}
	for i, r := range rows {
		if i > 0 {
			fmt.Fprintln(w)
		}
		// Everything but the state and the hints is a plugin's or a server's text (its version,
		// description, tool names, the stderr quoted by a failed start): printable escapes it,
		// tabs included, so it can neither drive the terminal nor shift a column.
		head := fmt.Sprintf("%s  %s", printable(r.Name), r.State)
		if r.Version != "" {
			head += "  v" + printable(strings.TrimPrefix(r.Version, "v"))
		}
		fmt.Fprintf(w, "%s  (%s)\n", head, printable(r.Command))
		if r.Description != "" {
			fmt.Fprintf(w, "  %s\n", printable(r.Description))
		}
		if r.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", printable(r.Error))
		}
		if line := scanLine(r); line != "" {
			fmt.Fprintf(w, "  scan: %s\n", line)
		}
		if len(r.Operations) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  OPERATION\tTOOL\tCALL WITH\tHINTS\tDESCRIPTION")
		for _, op := range r.Operations {
			callWith := string(op.CallWith)
			if op.Held { // in a column of awf's own: a server cannot forge the mark in a name
				callWith += " (held)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", printable(op.Name), printable(op.Tool), callWith,
				pluginHints(op.Annotations)+fromSuffix(op.AnnotationsFrom), printable(short(op.Description, 60)))
		}
		_ = tw.Flush()
	}
}

// scanLine sums up the scan of a plugin's tools for the listing; "" when it has no findings or
// was not scanned.
func scanLine(r pluginRow) string {
	if r.Findings == nil || *r.Findings == 0 {
		return ""
	}
	held := 0
	for _, op := range r.Operations {
		if op.Held {
			held++
		}
	}
	line := fmt.Sprintf("%d finding(s)", *r.Findings)
	if held > 0 {
		line += fmt.Sprintf(", %d tool(s) held out of every step until accepted (`awf plugins lock --accept %s/<tool>`)", held, printable(r.Name))
	}
	return line + "; `awf plugins scan` shows them"
}

// pluginHints renders the annotation hints compactly: "readOnly" for true, "!destructive" for false,
// nothing for unset; "-" when none is set.
func pluginHints(a tool.Annotations) string {
	var out []string
	for _, h := range []struct {
		name string
		v    *bool
	}{{"readOnly", a.ReadOnlyHint}, {"destructive", a.DestructiveHint}, {"idempotent", a.IdempotentHint}, {"openWorld", a.OpenWorldHint}} {
		switch {
		case h.v == nil:
		case *h.v:
			out = append(out, h.name)
		default:
			out = append(out, "!"+h.name)
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, " ")
}

func pluginFirstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// projectPluginHost is the plugin host of a project, for `awf validate` and `awf run`
// (validate.PluginCheck) and anything else that needs the project's plugins. Close it when done.
func projectPluginHost(root string, logger *zap.Logger) *plugins.Host {
	return plugins.New(plugins.Options{Root: root, Logger: logger})
}

// pluginProviders builds the tool providers of an mcp-serve config's plugin_tools, one per
// entry, over one host reading cfg.PluginsFile (default <root>/.awf/plugins.yaml, root being
// cfg.Root or the current directory). The router that takes them owns the plugin processes:
// its Close, or a failed NewRouter, stops them. nil when the config exposes no plugin tools.
func pluginProviders(cfg toolset.Spec, logger *zap.Logger) []ports.ToolProvider {
	if len(cfg.PluginTools) == 0 {
		return nil
	}
	opts := plugins.Options{File: cfg.PluginsFile, Logger: logger, NoNetwork: pluginsNoNetwork(cfg), RemoteAllowed: remoteAllowed(cfg)}
	if cfg.PluginsFile == "" {
		opts.Root = cfg.Root
		if opts.Root == "" {
			opts.Root, _ = os.Getwd()
		}
	}
	host := plugins.New(opts)
	return pluginadapter.Owned(host, host, cfg.PluginTools)
}

// fromSuffix marks where a bridged MCP tool's annotations came from.
func fromSuffix(from string) string {
	if from == "" {
		return ""
	}
	return " (" + from + ")"
}
