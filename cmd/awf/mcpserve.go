package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/awf-dev/awf/cmd/internal/servecmd"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/telemetry"
)

// newMCPServeCmd is the subprocess an agent CLI spawns, with everything awf links: plugin tools
// and span export. The slim awf-serve binary (cmd/awf-serve) serves the other steps.
func newMCPServeCmd() *cobra.Command {
	o := servecmd.Options{
		Version:        version,
		Providers:      pluginProviders,
		PluginCommands: plugins.Commands,
		MaskPlugins:    maskPluginValues,
		Tracing: func(ctx context.Context, red *redact.Redactor) (func(context.Context) error, error) {
			_, shutdown, err := telemetry.SetupSync(ctx, "awf-mcp-serve", telemetry.WithRedactor(red))
			return shutdown, err
		},
	}
	f := servecmd.Flags{}
	cmd := &cobra.Command{
		Use:    servecmd.Use,
		Short:  servecmd.Short,
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return servecmd.Run(cmd.Context(), o, f)
		},
	}
	cmd.Flags().StringVar(&f.Config, servecmd.ConfigFlag, "", servecmd.ConfigUsage)
	cmd.Flags().IntVar(&f.Turn, servecmd.TurnFlag, 0, servecmd.TurnUsage)
	cmd.Flags().BoolVar(&f.TuneRuntime, servecmd.TuneFlag, true, servecmd.TuneUsage)
	return cmd
}

// serveBinary is the binary agent CLIs spawn as `<binary> mcp-serve`: the slim awf-serve
// installed next to awf when there is one, else awf itself. A step it cannot serve alone is
// still given awf (stepproxy decides per step; awf-serve hands over what it cannot serve).
func serveBinary(self string) string {
	slim := filepath.Join(filepath.Dir(self), servecmd.SlimName)
	if fi, err := os.Stat(slim); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return slim
	}
	return ""
}
