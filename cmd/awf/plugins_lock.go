package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/pluginlock"
)

// newPluginsLockCmd is `awf plugins lock [--check]`: pin every tool of every plugin (gRPC and
// MCP) in .awf/plugins.lock, or, with --check, fail on drift for CI.
func newPluginsLockCmd(g *globalFlags) *cobra.Command {
	var check bool
	cmd := &cobra.Command{
		Use:   "lock",
		Short: "Pin every plugin tool (name, description, schemas, annotations) in .awf/plugins.lock",
		Long: `Start every enabled plugin of .awf/plugins.yaml, fingerprint each tool it lists over its name,
description, input and output schema and annotations, and write .awf/plugins.lock (commit it).
While the lock exists, a step whose exposed tool is new or changed fails before the agent starts
with USER.MCP_PROXY.TOOL_CHANGED. --check writes nothing and exits non-zero on drift.`,
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
			l, err := h.WriteLock(cmd.Context())
			if err != nil {
				return err
			}
			n := 0
			for _, tools := range l.Plugins {
				n += len(tools)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "pinned %d tool(s) of %d plugin(s) in %s\n", n, len(l.Plugins), h.LockFile())
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "compare with the lock and exit non-zero on drift; write nothing")
	return cmd
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
		return fault.New(fault.UserMCPProxyToolChanged, "plugin tools differ from %s:\n  %s", h.LockFile(), strings.Join(d, "\n  ")).
			WithHint("review the changes, then run `awf plugins lock`")
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s is up to date\n", h.LockFile())
	return nil
}
