// Package mcpserve is the body of `awf mcp-serve`: from a step's toolset.Spec it builds the one
// ToolRouter (built-ins and plugin tools), puts it behind pkg/mcpserver on stdio, and reports back
// to the parent run through the activity file, the log file, the trace context and a ready file.
// It also owns the two files of that hand-off: the JSON config and the ready record.
package mcpserve

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/accel"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/approvals"
	"github.com/awf-dev/awf/internal/infrastructure/privatefs"
	"github.com/awf-dev/awf/internal/infrastructure/telemetry/otelenv"
	"github.com/awf-dev/awf/internal/infrastructure/tools/builtins"
	"github.com/awf-dev/awf/pkg/mcpserver"
)

// Deps are what the caller owns: the logger (built from the config's log_file by cmd/awf) and
// extra providers (plugin tools, wired in by the caller).
type Deps struct {
	Logger    *zap.Logger
	Providers []ports.ToolProvider
	Version   string
	// Redactor masks secrets in the router's spans, log lines and records; the step's hidden
	// variables (its api_key_env) are added to it. nil masks nothing.
	Redactor *redact.Redactor
	// Turn is the conversation turn of the agent call that spawned the server (`--turn`),
	// recorded with each tool call; 0 outside conversations.
	Turn int
	// BeginCall, when set, is called as each tool call starts, and what it returns as the call
	// ends (servetune.Pacer.Begin).
	BeginCall func() (end func())
	// BeginFanOut, when set, is called besides BeginCall as a built-in tool whose definition
	// fans out (tool.Definition.FansOut: Grep, Glob) starts, in direct and split mode alike
	// (servetune.Pacer.BeginWide).
	BeginFanOut func() (end func())
	// Workers is how many goroutines Grep and Glob walk a tree with; 0 means GOMAXPROCS as the
	// tools are built (builtins.Options.Workers).
	Workers int
}

// ReadyRecord is written to the config's ready_file once the server is about to serve. The step
// that spawned the agent reads it to prove the proxy really ran.
type ReadyRecord struct {
	PID   int       `json:"pid"`
	Time  time.Time `json:"time"`
	Tools []string  `json:"tools"`
}

// Build makes the router for cfg. The router owns the providers and closes them.
func Build(ctx context.Context, cfg toolset.Spec, deps Deps) (*routing.Router, error) {
	root := cfg.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fault.Wrap(err, fault.SystemMCPServeStart, "cannot read the current directory")
		}
		root = wd
	}
	providers := append([]ports.ToolProvider(nil), deps.Providers...)
	deps.Redactor.AddNames(cfg.HideEnv...)
	var sink ports.ActivitySink
	if cfg.ActivityFile != "" {
		// Kept open for the router's life (it closes the sink): one write per call, no open.
		sink = &activitylog.Appender{Store: activitylog.FileStore{Path: cfg.ActivityFile, Logger: deps.Logger, Redactor: deps.Redactor}}
	}
	if cfg.Builtins {
		env := cfg.BashEnv
		if env == nil {
			env = hideEnv(builtins.ScrubEnvKeeping(os.Environ(), cfg.EnvPassthrough), cfg.HideEnv, cfg.EnvPassthrough)
		}
		b, err := builtins.New(builtins.Options{Root: root, Env: env, Sandbox: sandboxOptions(cfg, newEgressRecorder(cfg.RunID, cfg.Step, sink, deps.Logger)), Protected: protectedFiles(cfg),
			Workers: deps.Workers, FanOut: deps.BeginFanOut})
		if err != nil {
			if fault.CodeOf(err) == fault.UserSandboxUnavailable {
				return nil, err
			}
			return nil, fault.Wrap(err, fault.UserMCPServeConfig, "cannot serve the built-in tools for root %s", root)
		}
		if w := b.SandboxWarning(); w != "" {
			deps.Logger.Warn(w, zap.String("step", cfg.Step))
		}
		providers = append([]ports.ToolProvider{b}, providers...)
	}
	return routing.NewRouter(ctx, routing.Options{
		Logger:   deps.Logger,
		Tracer:   otel.Tracer("awf/mcp-serve"),
		Activity: sink,
		RunID:    cfg.RunID,
		Step:     cfg.Step,
		Redactor: deps.Redactor,
		// The run's OTEL_* variables are in this process's environment (servecmd sets them
		// from the config), the opt-in among them.
		ConventionsOnly: otelenv.GenAILatest(os.Getenv),
	}, providers...)
}

// Serve builds the router and serves it on r/w until ctx ends or r reaches EOF. A step with
// built-in tools only is served as Start and Session.Serve do; plugin tools may take seconds to
// start, which a client expects of initialize rather than of a tools/list it may time out
// sooner, so they are built before anything is read.
func Serve(ctx context.Context, cfg toolset.Spec, deps Deps, r io.Reader, w io.Writer) error {
	if len(cfg.PluginTools) == 0 && len(deps.Providers) == 0 {
		return Start(ctx, deps.Version, r, w).Serve(ctx, cfg, deps)
	}
	deps = withLogger(deps)
	srv := newServer(deps.Version)
	router, names, err := register(ctx, srv, cfg, deps)
	if err != nil {
		return err
	}
	defer func() { _ = router.Close() }()
	if err := announce(cfg, deps, names); err != nil {
		return err
	}
	return srv.Serve(ctx, r, w)
}

// Session is an MCP session served before its tools exist. Agent CLIs spawn mcp-serve per step
// and wait for its tools/list; on this machine start-up is mostly first page faults, the
// client's handshake costs the SDK about as many as decoding the config and building the tools
// cost awf, so the two overlap (the docs/decisions/0015-performance-at-the-floor.md cold start): the handshake (server/discover,
// initialize) is answered at once, and tools/list, tools/call and whatever follows them wait, in
// order, until the tools are in (mcpserver.Server.Hold).
type Session struct {
	srv     *mcpserver.Server
	release func()
	cancel  context.CancelFunc
	served  chan error
	ended   bool
}

// Start begins serving r/w. Messages about tools wait for Serve, or are dropped by Abort; one of
// the two must be called.
func Start(ctx context.Context, version string, r io.Reader, w io.Writer) *Session {
	srv := newServer(version)
	ctx, cancel := context.WithCancel(ctx)
	s := &Session{srv: srv, release: srv.Hold(), cancel: cancel, served: make(chan error, 1)}
	go func() { s.served <- srv.Serve(ctx, r, w) }()
	return s
}

// Serve builds the router for cfg, gives its tools to the session, writes the ready file and
// serves until the session ends. ctx is the router's.
//
// The tools are released before the ready file is written: the write (a temp file and a
// rename) costs about a millisecond of the client's wait for tools/list on this machine, and
// nothing reads the file while the server lives (the step reads it once its CLI has exited, to
// prove the proxy served and to stop a server that outlives the CLI). Serve returns only after
// the write, so a server that ends normally has written it. A write that fails ends the session:
// the step then fails for want of the proxy, as it would have without one.
func (s *Session) Serve(ctx context.Context, cfg toolset.Spec, deps Deps) error {
	deps = withLogger(deps)
	router, names, err := register(ctx, s.srv, cfg, deps)
	if err != nil {
		s.Abort()
		return err
	}
	defer func() { _ = router.Close() }() // after the session has ended
	s.release()
	s.ended = true
	if err := announce(cfg, deps, names); err != nil {
		s.stop()
		return err
	}
	return <-s.served
}

// Abort ends a session that will not get its tools: the messages held are dropped unanswered,
// and the session's goroutines are gone when it returns. It does nothing on a nil or ended
// session.
func (s *Session) Abort() {
	if s == nil || s.ended {
		return
	}
	s.ended = true
	s.stop() // before release, so that nothing held is answered without tools
	s.release()
}

// stop ends the session and waits for its goroutines.
func (s *Session) stop() {
	s.cancel()
	<-s.served
}

// newServer is the MCP server of mcp-serve, without tools yet.
func newServer(version string) *mcpserver.Server {
	return mcpserver.New(mcpserver.Options{
		Name:         "awf",
		Version:      version,
		Instructions: "Tools served by awf. Every call is checked against the step's intent rules and recorded.",
		// Protocol-level trouble (a panicking handler) goes to stderr, which agent CLIs show.
		Logger:       slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Accelerators: accelerators(),
	})
}

// accelerators are the shortcuts of pkg/mcpserver the environment leaves on (see package accel).
func accelerators() mcpserver.Accelerators {
	var a mcpserver.Accelerators
	if accel.On(accel.MCPDirect) {
		a |= mcpserver.AccelDirect
	}
	return a
}

// withLogger gives deps a logger that discards when it has none.
func withLogger(deps Deps) Deps {
	if deps.Logger == nil {
		deps.Logger = zap.NewNop()
	}
	return deps
}

// register builds the router for cfg and adds its tools to srv, returning their names.
func register(ctx context.Context, srv *mcpserver.Server, cfg toolset.Spec, deps Deps) (*routing.Router, []string, error) {
	router, err := Build(ctx, cfg, deps)
	if err != nil {
		return nil, nil, err
	}
	settings := routing.IntentSettingsFromToolset(cfg.Intent)
	if len(settings.Ask) > 0 && cfg.ApprovalsDir != "" {
		settings.Approver = approvals.Dir{Path: cfg.ApprovalsDir, Timeout: cfg.Intent.ApprovalTimeout, Redactor: deps.Redactor}
	}
	exposure := routing.NewExposure(router, settings)
	parent := trace.SpanContextFromContext(withTraceparent(context.Background(), cfg.Traceparent))
	names := make([]string, 0)
	for _, def := range exposure.ListTools() {
		if err := srv.AddTool(toMCP(def), handler(exposure, def.Name, parent, deps)); err != nil {
			_ = router.Close()
			return nil, nil, fault.Wrap(err, fault.SystemMCPServeStart, "cannot register tool %s", def.Name)
		}
		names = append(names, def.Name)
	}
	// Names the agent was not shown (a tool by its own name in split mode, a legacy call_tool, a
	// tool the step's allow list hides) still reach the exposure, which answers with guidance and
	// records the refusal, instead of the SDK's bare "unknown tool".
	srv.SetFallback(func(ctx context.Context, name string, args json.RawMessage) (*mcpserver.Result, error) {
		return handler(exposure, name, parent, deps)(ctx, args)
	})
	return router, names, nil
}

// announce writes the ready file and the log line saying the server serves.
func announce(cfg toolset.Spec, deps Deps, names []string) error {
	if cfg.ReadyFile != "" {
		if err := writeReady(cfg.ReadyFile, ReadyRecord{PID: os.Getpid(), Time: time.Now().UTC(), Tools: names}); err != nil {
			return fault.Wrap(err, fault.SystemMCPServeStart, "cannot write the ready file %s", cfg.ReadyFile)
		}
	}
	deps.Logger.Info("mcp-serve ready", zap.Strings("tools", names), zap.String("root", cfg.Root))
	return nil
}

// handler routes one MCP tool to the router. Calls become children of the step's span when a
// traceparent was given, even though the MCP request itself carries no trace context, and carry
// the conversation turn when there is one.
func handler(exposure *routing.Exposure, name string, parent trace.SpanContext, deps Deps) mcpserver.Handler {
	turn, begin := deps.Turn, deps.BeginCall
	return func(ctx context.Context, args json.RawMessage) (*mcpserver.Result, error) {
		if begin != nil {
			defer begin()()
		}
		if turn > 0 {
			ctx = activity.WithTurn(ctx, turn)
		}
		if parent.IsValid() && !trace.SpanContextFromContext(ctx).IsValid() {
			ctx = trace.ContextWithRemoteSpanContext(ctx, parent)
		}
		start := time.Now()
		res := exposure.CallTool(withProgress(ctx), name, args)
		recordCall(ctx, name, start, res.IsError)
		out := &mcpserver.Result{IsError: res.IsError, Content: make([]mcpserver.Content, 0, len(res.Content)),
			StructuredContent: res.Structured, Meta: res.Meta}
		for _, c := range res.Content {
			out.Content = append(out.Content, mcpserver.Content{Type: c.Type, Text: c.Text, Raw: c.Raw})
		}
		return out, nil
	}
}

// toMCP is a tool as mcp-serve lists it. A bridged MCP server's tool keeps its own title,
// outputSchema, icons and _meta; awf's own tools, and gRPC plugins', are titled by their
// annotations' title.
func toMCP(def tool.Definition) mcpserver.Tool {
	t := mcpserver.Tool{Name: def.Name, Title: def.Title, Description: def.Description, InputSchema: def.InputSchema,
		OutputSchema: def.OutputSchema, Icons: def.Icons, Meta: def.Meta}
	if t.Title == "" && !def.Source.IsMCP() {
		t.Title = def.Annotations.Title
	}
	if a := def.Annotations; !a.IsZero() {
		t.Annotations = &mcpserver.Annotations{
			Title: a.Title, ReadOnlyHint: a.ReadOnlyHint, DestructiveHint: a.DestructiveHint,
			IdempotentHint: a.IdempotentHint, OpenWorldHint: a.OpenWorldHint,
		}
	}
	return t
}

// writeReady writes the record atomically so a reader never sees half of it.
func writeReady(path string, rec ReadyRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return privatefs.WriteFile(path, b)
}

// hideEnv drops the named variables from env, except those the step passes through.
func hideEnv(env, names, keep []string) []string {
	if len(names) == 0 {
		return env
	}
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, name) || slices.Contains(keep, name) {
			out = append(out, kv)
		}
	}
	return out
}

// withTraceparent continues the trace the parent awf handed over in the config.
func withTraceparent(ctx context.Context, tp string) context.Context {
	if tp == "" {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": tp})
}
