package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/pluginlock"
)

//lint:file-ignore SA1019 MCP logging (notifications/message, logging/setLevel) is deprecated by SEP-2577 but still what servers send; their stderr is logged too.

// Server is one bridged MCP server, started on first need and kept until Stop. Calls made
// while it starts wait for that start. It is safe for concurrent use.
type Server struct {
	cfg Config
	log *zap.Logger

	mu       sync.Mutex
	sess     *mcp.ClientSession
	accel    Accelerator // sess's accelerator over stdio; nil over HTTP or without one
	cmd      *exec.Cmd
	ops      []ports.PluginOperation
	pins     map[string]pluginlock.ToolPin // by server tool name, as listed at start
	outputs  map[string]*outputSchema      // by server tool name: the declared outputSchemas
	changed  atomic.Bool                   // the server announced notifications/tools/list_changed
	overHTTP atomic.Bool                   // the last start reached it over Streamable HTTP
	closed   bool
	failures int
	progress progressRoutes // calls waiting for the server's notifications/progress
}

// New returns a server that starts nothing until first asked.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	return &Server{cfg: cfg, log: cfg.Logger}
}

// Snapshot is a server's state for `awf plugins list`, read without starting it.
type Snapshot struct {
	Running, Stopped bool
	// Failures counts failed starts and crashes since the last good call.
	Failures   int
	PID        int
	Operations []ports.PluginOperation
}

// Snapshot reports the server's state without starting it.
func (s *Server) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := Snapshot{Running: s.sess != nil, Stopped: s.closed, Failures: s.failures, Operations: append([]ports.PluginOperation(nil), s.ops...)}
	if s.sess != nil && s.cmd != nil && s.cmd.Process != nil {
		out.PID = s.cmd.Process.Pid
	}
	return out
}

// Operations returns the tools the server lists, as plugin operations with effective
// annotations, and their pins, starting the server if needed.
func (s *Server) Operations(ctx context.Context) ([]ports.PluginOperation, map[string]pluginlock.ToolPin, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.connectLocked(ctx); err != nil {
		return nil, nil, err
	}
	return append([]ports.PluginOperation(nil), s.ops...), s.pins, nil
}

// connectLocked starts the server if it is not running; the caller holds mu.
func (s *Server) connectLocked(ctx context.Context) error {
	if s.closed {
		return ErrClosed
	}
	if s.sess != nil {
		return nil
	}
	if s.failures >= s.cfg.MaxCrashes {
		return fault.New(fault.ExecutionPluginCrashLoop, "MCP plugin %q failed %d times in a row; awf stopped restarting it", s.cfg.Name, s.failures).
			WithHint("see awf's log for the server's stderr, fix the server, and run the step again")
	}
	err := s.startLocked(ctx)
	if err != nil {
		s.failures++
	}
	return err
}

func (s *Server) startLocked(parent context.Context) error {
	launch, err := s.cfg.Launch()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(parent, s.cfg.StartupTimeout)
	defer cancel()
	transport := s.transport(launch)
	s.overHTTP.Store(launch.Cmd == nil)
	s.cmd = launch.Cmd // set before Connect, so a failed start still kills the server's group
	sess, err := s.client().Connect(ctx, transport, nil)
	if err == nil {
		s.sess = sess
		if st, ok := transport.(*stdioTransport); ok && st.conn.accel != nil {
			s.accel = st.conn.accel
		}
		s.askForLogs(ctx)
		err = s.listLocked(ctx)
	}
	if err != nil {
		s.stopLocked()
		return s.startError(parent, ctx, err, launch.Stderr)
	}
	if st, ok := transport.(*stdioTransport); ok && st.conn != nil {
		st.conn.started.Store(true) // from now on a stop is graceful
	}
	s.log.Info("MCP server started", zap.Int("tools", len(s.ops)))
	return nil
}

// client is the go-sdk client of one start, its notifications routed to awf.
func (s *Server) client() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "awf", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			s.log.Warn("MCP server announced a changed tool list")
			s.changed.Store(true)
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) { s.serverLog(r.Params) },
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			s.progress.deliver(r.Params)
		},
	})
}

func (s *Server) startError(parent, ctx context.Context, err error, tail fmt.Stringer) error {
	out := ""
	if tail != nil {
		if t := tail.String(); t != "" {
			out = "; its last stderr: " + t
		}
	}
	switch {
	case parent.Err() != nil:
		return fault.Wrap(parent.Err(), fault.ExecutionPluginStartFailed, "starting MCP plugin %q was cancelled", s.cfg.Name)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fault.New(fault.ExecutionPluginStartFailed, "MCP plugin %q (%s) did not initialize within %s%s", s.cfg.Name, s.cfg.What, s.cfg.StartupTimeout, out).
			At(s.cfg.Pos).WithHint("raise startup_timeout in %s (a first npx run downloads the package), or run %s by hand", s.cfg.File, s.cfg.What)
	}
	return fault.Wrap(err, fault.ExecutionPluginStartFailed, "MCP plugin %q (%s) failed to start: %v%s", s.cfg.Name, s.cfg.What, err, out).
		At(s.cfg.Pos).WithHint("run %s by hand to see why; its stderr is in awf's log", s.cfg.What)
}

// transport builds the stdio or Streamable HTTP transport of a launch.
func (s *Server) transport(l Launch) mcp.Transport {
	if l.Cmd == nil {
		return &mcp.StreamableClientTransport{Endpoint: l.URL, HTTPClient: &http.Client{Transport: headerTransport{headers: l.Headers}}, MaxRetries: -1}
	}
	return &stdioTransport{cmd: l.Cmd, log: s.log, terminate: 800 * time.Millisecond, progress: &s.progress, accel: s.cfg.Accelerator, kill: s.cfg.KillGroup}
}

// askForLogs has a server that can send log notifications send them from level info up; they
// go to awf's log tagged with the plugin. A server that refuses is not an error.
func (s *Server) askForLogs(ctx context.Context) {
	if r := s.sess.InitializeResult(); r != nil && r.Capabilities != nil && r.Capabilities.Logging != nil {
		if err := s.sess.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
			s.log.Debug("MCP server refused logging/setLevel", zap.Error(err))
		}
	}
}

// listLocked lists the server's tools and computes their effective annotations and pins.
func (s *Server) listLocked(ctx context.Context) error {
	var ops []ports.PluginOperation
	pins := map[string]pluginlock.ToolPin{}
	outputs := map[string]*outputSchema{}
	for t, err := range s.sess.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing tools: %w", err)
		}
		op := operationOf(t)
		op.Annotations, op.AnnotationsFrom = AnnotationsWithOrigin(t.Annotations, s.cfg.Annotations[t.Name])
		ops = append(ops, op)
		pins[t.Name] = pinTool(t)
		if op.OutputSchema != nil {
			outputs[t.Name] = compileOutput(op.OutputSchema)
		}
	}
	s.ops, s.pins, s.outputs = ops, pins, outputs
	return nil
}

// operationOf is a listed tool as a plugin operation, every field of its definition kept as the
// server sent it (title, input and output schema, icons, _meta); the caller sets the effective
// annotations.
func operationOf(t *mcp.Tool) ports.PluginOperation {
	op := ports.PluginOperation{Name: t.Name, Title: t.Title, Description: t.Description}
	op.InputSchema, _ = json.Marshal(t.InputSchema)
	if t.OutputSchema != nil {
		op.OutputSchema, _ = json.Marshal(t.OutputSchema)
	}
	if len(t.Icons) > 0 {
		op.Icons, _ = json.Marshal(t.Icons)
	}
	if len(t.Meta) > 0 {
		op.Meta, _ = json.Marshal(t.Meta)
	}
	return op
}

// pinTool pins a tool's whole definition as the server listed it (the server's annotations,
// not the override): the one pin both `awf plugins lock` writes and a step compares, at start
// and after notifications/tools/list_changed, so a change to any field, icons and _meta
// included, is drift. A tool without icons or _meta pins as it did before they were covered,
// so older locks still match.
func pinTool(t *mcp.Tool) pluginlock.ToolPin {
	p := pluginlock.NewPin(t.Name, []string{t.Title, t.Description}, t.InputSchema, t.OutputSchema, t.Annotations)
	var icons, meta json.RawMessage
	if len(t.Icons) > 0 {
		icons, _ = json.Marshal(t.Icons)
	}
	if len(t.Meta) > 0 {
		meta, _ = json.Marshal(t.Meta)
	}
	if icons == nil && meta == nil {
		return p
	}
	return p.WithExtra([]json.RawMessage{icons, meta})
}

// Execute calls one tool. A tool announced as changed since the start is listed again and, if
// its pin moved, refused with USER.MCP_PROXY.TOOL_CHANGED. The structuredContent of a tool that
// declares an outputSchema is checked against it, on every path alike (outputSchema.check).
func (s *Server) Execute(ctx context.Context, name string, args json.RawMessage) (tool.Result, error) {
	s.mu.Lock()
	if err := s.connectLocked(ctx); err != nil {
		s.mu.Unlock()
		return tool.Result{}, err
	}
	if s.changed.Load() {
		if err := s.recheckLocked(ctx, name); err != nil {
			s.mu.Unlock()
			return tool.Result{}, err
		}
	}
	sess, accel, failed, out := s.sess, s.accel, s.failures > 0, s.outputs[name]
	s.mu.Unlock()
	res, err := s.call(ctx, sess, accel, name, args)
	if err != nil {
		return tool.Result{}, err
	}
	if out != nil {
		res = out.check(s.cfg.Name, name, res)
	}
	if failed {
		s.mu.Lock()
		s.failures = 0 // the server works: a later crash starts a new count
		s.mu.Unlock()
	}
	return res, nil
}

// recheckLocked lists the tools again after notifications/tools/list_changed and refuses a
// tool whose pin moved.
func (s *Server) recheckLocked(ctx context.Context, name string) error {
	before := s.pins
	if err := s.listLocked(ctx); err != nil {
		return err
	}
	s.changed.Store(false)
	old, had := before[name]
	now, has := s.pins[name]
	if had && has && old.Fingerprint != now.Fingerprint {
		s.pins[name] = old // keep refusing until the step restarts
		s.changed.Store(true)
		return fault.New(fault.UserMCPProxyToolChanged, "tool %q of MCP plugin %q changed during the step (%s)", name, s.cfg.Name, old.Diff(now)).
			WithHint("review the change, then run `awf plugins lock` to pin the new version")
	}
	return nil
}

// drop forgets a session that failed, so the next call starts the server again.
func (s *Server) drop(sess *mcp.ClientSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == sess {
		s.failures++
		s.stopLocked()
	}
}

// stopLocked closes the session (stdin closed, then SIGTERM and SIGKILL) and kills what is
// left of the server's process group.
func (s *Server) stopLocked() {
	if s.sess != nil {
		_ = s.sess.Close()
	}
	if s.cmd != nil && s.cmd.Process != nil && s.cfg.KillGroup != nil {
		s.cfg.KillGroup(s.cmd.Process.Pid)
	}
	s.sess, s.accel, s.cmd = nil, nil, nil
}

// Stop stops the server for good: later calls fail with ErrClosed.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.stopLocked()
}

// headerTransport adds the plugin's headers to every request.
type headerTransport struct{ headers []string }

// RoundTrip sends r with the headers set.
func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for _, kv := range t.headers {
		k, v, _ := strings.Cut(kv, "=")
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}
