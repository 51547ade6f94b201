package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/toolscan"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/pluginlock"
)

// newPluginsLockCmd is `awf plugins lock [--check] [--accept <plugin>/<tool>]…`: pin every tool
// of every plugin (gRPC and MCP) in .awf/plugins.lock and print the scan of their definitions,
// or, with --check, fail on drift for CI.
func newPluginsLockCmd(g *globalFlags) *cobra.Command {
	var check bool
	var accept []string
	cmd := &cobra.Command{
		Use:   "lock",
		Short: "Pin every plugin tool (its whole definition) in .awf/plugins.lock, and scan the definitions",
		Long: `Start every enabled plugin of .awf/plugins.yaml, fingerprint each tool it lists over its whole
definition (name, title, description, input and output schema, annotations), scan the definitions
(see awf plugins scan), print the findings and write .awf/plugins.lock (commit it).
While the lock exists, a step whose exposed tool is new or changed fails before the agent starts
with USER.MCP_PROXY.TOOL_CHANGED. A tool with a high finding is kept out of every step
(USER.MCP_PROXY.TOOL_HELD) until --accept <plugin>/<tool> records its definition as accepted;
a definition that changes afterwards is held again. --check writes nothing and exits non-zero
on drift.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := g.projectRoot()
			if err != nil {
				return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
			}
			h := projectPluginHost(root, zap.NewNop())
			defer func() { _ = h.Close() }()
			if check {
				return checkLock(cmd, h)
			}
			return writeLock(cmd, h, accept)
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "compare with the lock and exit non-zero on drift; write nothing")
	cmd.Flags().StringArrayVar(&accept, "accept", nil, "accept <plugin>/<tool> despite high scan findings, as its definition is now (repeatable)")
	return cmd
}

// writeLock writes the lock with the acceptances asked for, then prints the scan.
func writeLock(cmd *cobra.Command, h *plugins.Host, accept []string) error {
	l, err := h.WriteLock(cmd.Context(), accept...)
	if err != nil {
		return err
	}
	n := 0
	for _, tools := range l.Plugins {
		n += len(tools)
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "pinned %d tool(s) of %d plugin(s) in %s\n", n, len(l.Plugins), h.LockFile())
	rep, err := h.Scan(cmd.Context())
	if err != nil {
		return err
	}
	printFindings(out, rep)
	return nil
}

// printFindings prints the scan as text: one line per finding (already escaped), then the
// tools held out and how to accept them.
func printFindings(w io.Writer, rep plugins.ScanReport) {
	if len(rep.Findings) == 0 {
		fmt.Fprintln(w, "scan: no findings")
		return
	}
	fmt.Fprintf(w, "scan: %d finding(s)\n", len(rep.Findings))
	var held []string
	seen := map[string]bool{}
	for _, f := range rep.Findings {
		key := f.Server + "/" + f.Tool
		note := ""
		if f.Severity == toolscan.High && rep.Accepted[key] {
			note = " (accepted in the lock)"
		}
		fmt.Fprintf(w, "  %s%s\n", f, note)
		if rep.Held(f.Server, f.Tool) && !seen[key] {
			seen[key] = true
			held = append(held, key)
		}
	}
	if len(held) > 0 {
		fmt.Fprintf(w, "held out of every step until accepted (%s): %s\n", fault.UserMCPProxyToolHeld, escapeAll(held))
		fmt.Fprintf(w, "review each definition; to trust one as it is now: awf plugins lock --accept <plugin>/<tool>\n")
	}
}

func checkLock(cmd *cobra.Command, h *plugins.Host) error {
	locked, ok, err := h.ReadLock()
	if err != nil {
		return err
	}
	if !ok {
		return fault.New(fault.UserPluginsLockInvalid, "%s does not exist", h.LockFile()).WithHint("run `awf plugins lock` and commit the file")
	}
	now, err := h.Pins(cmd.Context())
	if err != nil {
		return err
	}
	if d := pluginlock.Drift(locked, now); len(d) > 0 {
		for i := range d {
			d[i] = toolscan.Escape(d[i]) // tool names are the server's
		}
		return fault.New(fault.UserMCPProxyToolChanged, "plugin tools differ from %s:\n  %s", h.LockFile(), strings.Join(d, "\n  ")).
			WithHint("review the changes, then run `awf plugins lock`")
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s is up to date\n", h.LockFile())
	return nil
}
