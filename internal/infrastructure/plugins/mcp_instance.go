package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
)

//lint:file-ignore SA1019 MCP logging (notifications/message, logging/setLevel) is deprecated by SEP-2577 but still what servers send; their stderr is logged too.

// mcpInstance is one `type: mcp` plugin: an MCP server reached over stdio (a process in its
// own group, dying with awf) or Streamable HTTP, started on first need and kept for the life
// of the host. Calls made while it starts wait for that start.
type mcpInstance struct {
	h    *Host
	spec Spec
	log  *zap.Logger

	mu       sync.Mutex
	sess     *mcp.ClientSession
	conn     *stdioConn // sess's connection over stdio, for the calls awf writes itself; nil over HTTP
	cmd      *exec.Cmd
	ops      []ports.PluginOperation
	pins     map[string]ToolPin // by server tool name, as listed at start
	changed  atomic.Bool        // the server announced notifications/tools/list_changed
	closed   bool
	failures int
	progress progressRoutes // calls waiting for the server's notifications/progress
}

func newMCPInstance(h *Host, spec Spec) *mcpInstance {
	return &mcpInstance{h: h, spec: spec, log: h.opts.Logger.With(zap.String("plugin", spec.Name), zap.String("type", TypeMCP))}
}

// operations returns the tools the server lists, as plugin operations with effective annotations.
func (m *mcpInstance) operations(ctx context.Context) ([]ports.PluginOperation, map[string]ToolPin, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.connectLocked(ctx); err != nil {
		return nil, nil, err
	}
	return append([]ports.PluginOperation(nil), m.ops...), m.pins, nil
}

// connectLocked starts the server if it is not running; the caller holds mu.
func (m *mcpInstance) connectLocked(ctx context.Context) error {
	if m.closed {
		return closedError(m.spec.Name)
	}
	if m.sess != nil {
		return nil
	}
	if m.failures >= m.h.opts.MaxCrashes {
		return fault.New(fault.ExecutionPluginCrashLoop, "MCP plugin %q failed %d times in a row; awf stopped restarting it", m.spec.Name, m.failures).
			WithHint("see awf's log for the server's stderr, fix the server, and run the step again")
	}
	err := m.startLocked(ctx)
	if err != nil {
		m.failures++
	}
	return err
}

func (m *mcpInstance) startLocked(parent context.Context) error {
	env, err := pluginEnv(m.spec, m.h.manifestFile(), os.Environ())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(parent, m.spec.MCP.StartupTimeout)
	defer cancel()
	tail := &tailBuffer{max: 2048}
	transport, cmd, err := m.transport(env, tail)
	if err != nil {
		return err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "awf", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			m.log.Warn("MCP server announced a changed tool list")
			m.changed.Store(true)
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) { m.serverLog(r.Params) },
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			m.progress.deliver(r.Params)
		},
	})
	m.cmd = cmd // set before Connect, so a failed start still kills the server's group
	sess, err := client.Connect(ctx, transport, nil)
	if err == nil {
		m.sess = sess
		if st, ok := transport.(*stdioTransport); ok {
			m.conn = st.conn
		}
		m.askForLogs(ctx)
		err = m.listLocked(ctx)
	}
	if err != nil {
		m.stopLocked()
		return m.startError(parent, ctx, err, tail)
	}
	m.log.Info("MCP server started", zap.Int("tools", len(m.ops)))
	return nil
}

func (m *mcpInstance) startError(parent, ctx context.Context, err error, tail *tailBuffer) error {
	what := m.spec.Command
	if m.spec.MCP.URL != "" {
		what = m.spec.MCP.URL
	}
	out := ""
	if t := tail.String(); t != "" {
		out = "; its last stderr: " + t
	}
	switch {
	case parent.Err() != nil:
		return fault.Wrap(parent.Err(), fault.ExecutionPluginStartFailed, "starting MCP plugin %q was cancelled", m.spec.Name)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fault.New(fault.ExecutionPluginStartFailed, "MCP plugin %q (%s) did not initialize within %s%s", m.spec.Name, what, m.spec.MCP.StartupTimeout, out).
			At(m.spec.Pos).WithHint("raise startup_timeout in %s (a first npx run downloads the package), or run %s by hand", m.h.manifestFile(), what)
	}
	return fault.Wrap(err, fault.ExecutionPluginStartFailed, "MCP plugin %q (%s) failed to start: %v%s", m.spec.Name, what, err, out).
		At(m.spec.Pos).WithHint("run %s by hand to see why; its stderr is in awf's log", what)
}

// transport builds the stdio or Streamable HTTP transport.
func (m *mcpInstance) transport(env []string, tail *tailBuffer) (mcp.Transport, *exec.Cmd, error) {
	if err := m.h.refuseRemote(m.spec); err != nil {
		return nil, nil, err
	}
	if u := m.spec.MCP.URL; u != "" {
		headers, err := expandPairs(m.spec, "header", m.spec.MCP.Headers, os.Environ(), m.h.manifestFile())
		if err != nil {
			return nil, nil, err
		}
		return &mcp.StreamableClientTransport{Endpoint: u, HTTPClient: &http.Client{Transport: headerTransport{headers: headers}}, MaxRetries: -1}, nil, nil
	}
	path, err := resolveCommand(m.h.opts.Root, m.h.manifestFile(), m.spec)
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(path, m.spec.Args...)
	cmd.Env = env
	cmd.Dir = m.h.opts.Root
	if c := m.spec.MCP.Cwd; c != "" {
		cmd.Dir = c
		if !filepath.IsAbs(c) {
			cmd.Dir = filepath.Join(m.h.opts.Root, c)
		}
	}
	cmd.Stderr = io.MultiWriter(tail, newLineLogger(m.log, "stderr"))
	setProcAttr(cmd)
	if err := m.h.isolateNetwork(cmd); err != nil {
		return nil, nil, err
	}
	return &stdioTransport{cmd: cmd, log: m.log, terminate: 2 * time.Second, progress: &m.progress}, cmd, nil
}

// askForLogs has a server that can send log notifications send them from level info up; they
// go to awf's log tagged with the plugin. A server that refuses is not an error.
func (m *mcpInstance) askForLogs(ctx context.Context) {
	if r := m.sess.InitializeResult(); r != nil && r.Capabilities != nil && r.Capabilities.Logging != nil {
		if err := m.sess.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
			m.log.Debug("MCP server refused logging/setLevel", zap.Error(err))
		}
	}
}

// listLocked lists the server's tools and computes their effective annotations and pins.
func (m *mcpInstance) listLocked(ctx context.Context) error {
	var ops []ports.PluginOperation
	pins := map[string]ToolPin{}
	for t, err := range m.sess.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing tools: %w", err)
		}
		schema, _ := json.Marshal(t.InputSchema)
		ann, from := annotationsWithOrigin(t.Annotations, m.spec.MCP.Annotations[t.Name])
		ops = append(ops, ports.PluginOperation{Name: t.Name, Description: t.Description, InputSchema: schema, Annotations: ann, AnnotationsFrom: from})
		pins[t.Name] = pinMCPTool(t)
	}
	m.ops, m.pins = ops, pins
	return nil
}

// execute calls one tool. A tool announced as changed since the start is listed again and, if
// its pin moved, refused with USER.MCP_PROXY.TOOL_CHANGED.
func (m *mcpInstance) execute(ctx context.Context, name string, args json.RawMessage) (tool.Result, error) {
	m.mu.Lock()
	if err := m.connectLocked(ctx); err != nil {
		m.mu.Unlock()
		return tool.Result{}, err
	}
	if m.changed.Load() {
		if err := m.recheckLocked(ctx, name); err != nil {
			m.mu.Unlock()
			return tool.Result{}, err
		}
	}
	sess, conn, failed := m.sess, m.conn, m.failures > 0
	m.mu.Unlock()
	res, err := m.call(ctx, sess, conn, name, args)
	if err != nil {
		return tool.Result{}, err
	}
	if failed {
		m.mu.Lock()
		m.failures = 0 // the server works: a later crash starts a new count
		m.mu.Unlock()
	}
	return res, nil
}

// recheckLocked lists the tools again after notifications/tools/list_changed and refuses a
// tool whose pin moved.
func (m *mcpInstance) recheckLocked(ctx context.Context, name string) error {
	before := m.pins
	if err := m.listLocked(ctx); err != nil {
		return err
	}
	m.changed.Store(false)
	old, had := before[name]
	now, has := m.pins[name]
	if had && has && old.Fingerprint != now.Fingerprint {
		m.pins[name] = old // keep refusing until the step restarts
		m.changed.Store(true)
		return fault.New(fault.UserMCPProxyToolChanged, "tool %q of MCP plugin %q changed during the step (%s)", name, m.spec.Name, old.Diff(now)).
			WithHint("review the change, then run `awf plugins lock` to pin the new version")
	}
	return nil
}

// drop forgets a session that failed, so the next call starts the server again.
func (m *mcpInstance) drop(s *mcp.ClientSession) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sess == s {
		m.failures++
		m.stopLocked()
	}
}

// stopLocked closes the session (stdin closed, then SIGTERM and SIGKILL) and kills what is
// left of the server's process group: npx leaves grandchildren.
func (m *mcpInstance) stopLocked() {
	if m.sess != nil {
		_ = m.sess.Close()
	}
	if m.cmd != nil && m.cmd.Process != nil {
		killGroup(m.cmd.Process.Pid)
	}
	m.sess, m.conn, m.cmd = nil, nil, nil
}

func (m *mcpInstance) stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.stopLocked()
}

// headerTransport adds the plugin's headers to every request.
type headerTransport struct{ headers []string }

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for _, kv := range t.headers {
		k, v, _ := strings.Cut(kv, "=")
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}
