package main

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/logging"
	"github.com/awf-dev/awf/internal/infrastructure/mcpserve"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
	"github.com/awf-dev/awf/internal/infrastructure/telemetry"
)

// newMCPServeCmd is the subprocess an agent CLI spawns. stdout carries only JSON-RPC; anything
// for humans goes to stderr or the log file.
func newMCPServeCmd() *cobra.Command {
	var configPath string
	var turn int
	cmd := &cobra.Command{
		Use:    "mcp-serve [--config file]",
		Short:  "Serve awf's tools over MCP stdio (spawned by agent CLIs)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tuneServeGC()
			cfg, err := loadServeConfig(configPath)
			if err != nil {
				return err
			}
			// Spawned per agent step: a sandbox probe that succeeded once is not redone.
			if dir, err := os.UserCacheDir(); err == nil {
				sandbox.UseProbeCache(filepath.Join(dir, "awf"))
			}
			level := zapcore.WarnLevel
			red := redact.New(os.Environ(), cfg.HideEnv...)
			logger, closeLog, err := logging.New(logging.Options{Console: os.Stderr, ConsoleLevel: level, File: cfg.LogFile, Redactor: red})
			if err != nil {
				return fault.Wrap(err, fault.UserMCPServeConfig, "cannot open log_file %s", cfg.LogFile)
			}
			defer func() { _ = closeLog() }()
			for k, v := range cfg.OTelEnv {
				if _, set := os.LookupEnv(k); !set {
					_ = os.Setenv(k, v)
				}
			}
			_, shutdown, err := telemetry.SetupSync(cmd.Context(), "awf-mcp-serve", telemetry.WithRedactor(red))
			if err != nil {
				return fault.Wrap(err, fault.UserOTelConfig, "cannot set up tracing from OTEL_* variables")
			}
			defer func() {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				defer cancel()
				_ = shutdown(ctx)
			}()
			// The router owns the plugin providers: its Close stops the plugin processes.
			deps := mcpserve.Deps{Logger: logger, Version: version, Providers: pluginProviders(cfg, logger), Redactor: red, Turn: turn}
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			go watchParent(ctx, cancel)
			return mcpserve.Serve(ctx, cfg, deps, os.Stdin, os.Stdout)
		},
	}
	cmd.Flags().StringVar(&configPath, "config", "", "JSON config written by awf for one agent step (default: built-in tools over the current directory)")
	cmd.Flags().IntVar(&turn, "turn", 0, "the conversation turn of the agent call that spawned this server, recorded with each tool call")
	return cmd
}

func loadServeConfig(path string) (toolset.Spec, error) {
	if path == "" {
		return mcpserve.Defaults(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return toolset.Spec{}, fault.Wrap(err, fault.UserMCPServeConfig, "cannot read mcp-serve config %s", path)
	}
	defer func() { _ = f.Close() }()
	cfg, err := mcpserve.Decode(f)
	if err != nil {
		return cfg, fault.New(fault.UserMCPServeConfig, "%s: %v", path, err).WithHint("the file is written by awf; regenerate it or fix the key named above")
	}
	return cfg, nil
}

// watchParent ends the server when the process that spawned it dies. stdin EOF normally tells,
// but a CLI killed with SIGKILL can leave the pipe held open by a sibling (codex runs its MCP
// servers in their own process group), and a server nobody will ever talk to must not linger.
// A prctl parent-death signal would be simpler but fires when the spawning *thread* exits, which
// in Node-based CLIs can be any libuv worker; watching for reparenting is exact.
func watchParent(ctx context.Context, cancel context.CancelFunc) {
	parent := os.Getppid()
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if os.Getppid() != parent {
				cancel()
				return
			}
		}
	}
}
