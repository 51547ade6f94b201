// Package servecmd is the `mcp-serve` command: the process an agent CLI spawns for every agent
// step, serving awf's tools over MCP stdio. Two binaries carry it. The awf binary serves every
// step. The slim awf-serve binary serves the common step, without plugin tools and without
// trace export: it links neither the gRPC plugin host nor the OTLP exporters, whose package
// initialisation is most of awf's start-up (docs/decisions/0015-performance-at-the-floor.md), and hands any other step to awf.
//
// The package has no command-line library: awf puts Run under its cobra command, awf-serve
// parses its three flags with the standard library's flag package, so that cobra, pflag and
// their package initialisation stay out of the binary spawned per step.
package servecmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/logging"
	"github.com/awf-dev/awf/internal/infrastructure/mcpserve"
	"github.com/awf-dev/awf/internal/infrastructure/process"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
	"github.com/awf-dev/awf/internal/infrastructure/servetune"
	"github.com/awf-dev/awf/internal/infrastructure/telemetry/otelenv"
)

// Options are what a binary brings to the command. The awf binary sets all of them; the slim
// binary sets Handoff instead of the rest.
type Options struct {
	// Version is reported to MCP clients.
	Version string
	// Providers are the plugin tools of the step's config.
	Providers func(cfg toolset.Spec, logger *zap.Logger) []ports.ToolProvider
	// Tracing installs the span exporter the environment asks for; the returned function
	// flushes it.
	Tracing func(ctx context.Context, red *redact.Redactor) (func(context.Context) error, error)
	// PluginCommands resolves the executables a plugins.yaml declares, for a config written
	// without them (by hand, or by an awf before the field existed).
	PluginCommands func(file string) []string
	// MaskPlugins adds to the process's redactor the values the config's plugins file gives
	// its plugins and MCP servers in env: and headers: (the plugins' credentials, whatever
	// their names), so that a server printing one leaves it out of the records and the log, as
	// `awf run` does (docs/decisions/0011-values-are-data-secrets-are-masked.md). The slim
	// binary, which runs no plugin, leaves it nil.
	MaskPlugins func(file string, red *redact.Redactor)
	// Handoff, when set, is given the config first; it returns nil to serve here, or replaces
	// the process with one that can serve the config, given the same arguments (it returns
	// only on failure).
	Handoff func(cfg toolset.Spec) error
}

// The command's flags, shared by both binaries' parsers.
const (
	// Use is the command line, for help texts.
	Use = "mcp-serve [--config file] [--turn n] [--tune-runtime=false]"
	// Short says what the command is for.
	Short = "Serve awf's tools over MCP stdio (spawned by agent CLIs)"
	// ConfigFlag names the step's config file.
	ConfigFlag = "config"
	// ConfigUsage is its help text.
	ConfigUsage = "JSON config written by awf for one agent step (default: built-in tools over the current directory)"
	// TurnFlag is the conversation turn.
	TurnFlag = "turn"
	// TurnUsage is its help text.
	TurnUsage = "the conversation turn of the agent call that spawned this server, recorded with each tool call"
	// TuneFlag switches the runtime tuning of package servetune.
	TuneFlag = "tune-runtime"
	// TuneUsage is its help text.
	TuneUsage = "run on one CPU between tool calls and collect garbage less often (false: the Go runtime's defaults; GOMAXPROCS, GOGC and GOMEMLIMIT always win)"
)

// Flags are mcp-serve's command line, parsed by each binary's own parser.
type Flags struct {
	Config string // ConfigFlag
	Turn   int    // TurnFlag
	// TuneRuntime is awf-serve's one switch over the Go runtime (TuneFlag, on by default): the
	// Pacer and the collector's settings of package servetune.
	TuneRuntime bool
}

// Run serves one agent step's tools on stdin and stdout until stdin ends, ctx is cancelled or
// the parent dies. stdout carries only JSON-RPC; anything for humans goes to stderr or the log
// file.
func Run(ctx context.Context, o Options, f Flags) error {
	// Children that run unsandboxed (Bash under mode: off, plugins, bridged servers) must not
	// read this process's environment or memory through /proc: not as the same user (the
	// process is non-dumpable), and not as root either, for the environment (its block is
	// blanked; the Go runtime's copy serves Bash's scrubbed environment and the redactor). The
	// start's token stays, so that a sweep still finds the process.
	_ = sandbox.CloseProcToChildren()
	_ = mcpserve.BlankProcEnviron(process.TokenEnv)
	tuning := servetune.Apply(f.TuneRuntime)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	data, err := readConfig(f.Config)
	if err != nil {
		return err
	}
	// A step the parent gave to the slim binary starts serving now, before its config is
	// decoded: see mcpserve.Session. Anything else waits, since it may be handed to awf by exec,
	// which must come before anything is read from stdin.
	var early *mcpserve.Session
	if servesEarly(f.Config, data) {
		early = mcpserve.Start(ctx, o.Version, os.Stdin, os.Stdout)
	}
	defer func() { early.Abort() }()
	cfg, err := prepare(o, f.Config, data, early != nil)
	if err != nil {
		return err
	}
	if early == nil && !NeedsAWF(cfg, os.Getenv) {
		// A config without serve_with (written by hand) starts serving once decoded.
		early = mcpserve.Start(ctx, o.Version, os.Stdin, os.Stdout)
	}
	red := redactorFor(o, cfg)
	logger, closeLog, err := logging.New(logging.Options{Console: os.Stderr, ConsoleLevel: zapcore.WarnLevel, File: cfg.LogFile, Redactor: red})
	if err != nil {
		return fault.Wrap(err, fault.UserMCPServeConfig, "cannot open log_file %s", cfg.LogFile)
	}
	defer func() { _ = closeLog() }()
	flush, err := startTracing(ctx, o, red)
	if err != nil {
		return err
	}
	defer flush()
	deps := mcpserve.Deps{Logger: logger, Version: o.Version, Redactor: red, Turn: f.Turn,
		BeginCall: tuning.BeginCall, BeginFanOut: tuning.BeginFanOut, Workers: tuning.Workers}
	if o.Providers != nil {
		// The router owns the plugin providers: its Close stops the plugin processes.
		deps.Providers = o.Providers(cfg, logger)
	}
	go watchParent(ctx, cancel)
	if early != nil {
		return early.Serve(ctx, cfg, deps)
	}
	return mcpserve.Serve(ctx, cfg, deps, os.Stdin, os.Stdout)
}

// redactorFor is the redactor of the process serving cfg: the secret-named variables of its
// environment, the step's hidden ones, and the values its plugins file gives plugins (the
// config's plugins_file, else the root's .awf/plugins.yaml, where the plugin host reads it).
func redactorFor(o Options, cfg toolset.Spec) *redact.Redactor {
	red := redact.New(os.Environ(), cfg.HideEnv...)
	file := cfg.PluginsFile
	if file == "" && len(cfg.PluginTools) > 0 {
		root := cfg.Root
		if root == "" {
			root, _ = os.Getwd()
		}
		file = filepath.Join(root, ".awf", "plugins.yaml")
	}
	if o.MaskPlugins != nil && file != "" {
		o.MaskPlugins(file, red)
	}
	return red
}

// servesEarly reports whether the step may be served before its config is decoded: the default
// toolset (no config), or a config the parent wrote for the slim binary (serve_with) when no
// span export is asked of this process's environment.
func servesEarly(path string, data []byte) bool {
	if path == "" {
		return true
	}
	return mcpserve.ServeWith(data) == toolset.SlimBinary && !otelenv.Enabled(os.Getenv)
}

// prepare decodes the config and readies the process for it: the config's OTel variables, the
// hand-over to awf (Options.Handoff), the plugin commands of a config written without them, and
// the sandbox's probe cache. served says a session already answers the client.
func prepare(o Options, path string, data []byte, served bool) (toolset.Spec, error) {
	cfg, err := decodeConfig(path, data)
	if err != nil {
		return cfg, err
	}
	// Some CLIs (codex) give their MCP servers only HOME, LANG, PATH and TERM: the run's OTEL_*
	// variables come in the config.
	for k, v := range cfg.OTelEnv {
		if _, set := os.LookupEnv(k); !set {
			_ = os.Setenv(k, v)
		}
	}
	if served && NeedsAWF(cfg, os.Getenv) {
		// serve_with rules this out; a mistake there must not serve a step without its tools.
		return cfg, fault.New(fault.SystemMCPServeStart, "the config %s names plugin tools or span export, which awf-serve saw too late to hand over", path)
	}
	if o.Handoff != nil {
		if err := o.Handoff(cfg); err != nil {
			return cfg, err
		}
	}
	if cfg.PluginsFile != "" && cfg.PluginCommands == nil && o.PluginCommands != nil {
		cfg.PluginCommands = o.PluginCommands(cfg.PluginsFile)
	}
	// Spawned per agent step: a sandbox probe that succeeded once is not redone.
	if dir, err := os.UserCacheDir(); err == nil {
		sandbox.UseProbeCache(filepath.Join(dir, "awf"))
	}
	return cfg, nil
}

// startTracing installs the span exporter the binary links (Options.Tracing), if any; the
// returned function flushes it.
func startTracing(ctx context.Context, o Options, red *redact.Redactor) (flush func(), err error) {
	if o.Tracing == nil {
		return func() {}, nil
	}
	shutdown, err := o.Tracing(ctx, red)
	if err != nil {
		return nil, fault.Wrap(err, fault.UserOTelConfig, "cannot set up tracing from OTEL_* variables")
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = shutdown(ctx)
	}, nil
}

// NeedsAWF reports whether cfg needs what only the awf binary links: plugin tools (the gRPC
// plugin host, and MCP plugins declared in YAML), span export (the OTLP exporters), or plugin
// commands still to be resolved from plugins.yaml. getenv is the serving process's environment
// with the config's OTEL_* variables applied.
func NeedsAWF(cfg toolset.Spec, getenv func(string) string) bool {
	return len(cfg.PluginTools) > 0 || otelenv.Enabled(getenv) || cfg.PluginsFile != "" && cfg.PluginCommands == nil
}

// readConfig reads the config file; no path reads nothing.
func readConfig(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fault.Wrap(err, fault.UserMCPServeConfig, "cannot read mcp-serve config %s", path)
	}
	return data, nil
}

// decodeConfig is the toolset of the config read from path; no path is the default toolset.
func decodeConfig(path string, data []byte) (toolset.Spec, error) {
	if path == "" {
		return mcpserve.Defaults(), nil
	}
	cfg, err := mcpserve.Decode(bytes.NewReader(data))
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

// SlimName is the file name of the slim binary, installed next to awf.
const SlimName = "awf-serve"
