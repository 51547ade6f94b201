package plugins

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/process"
	"github.com/awf-dev/awf/internal/infrastructure/tools/mcpbridge"
	"github.com/awf-dev/awf/internal/infrastructure/tools/mcpbridge/rawcall"
)

// mcp returns the bridge of a declared, enabled `type: mcp` plugin, creating it on first use;
// ok is false for a gRPC plugin (or an unknown name, which the gRPC path reports).
func (h *Host) mcp(name string) (*mcpbridge.Server, bool, error) {
	m, err := h.Manifest()
	if err != nil {
		return nil, false, err
	}
	spec, found := m.Lookup(name)
	if !found || !spec.isMCP() {
		return nil, false, nil
	}
	if spec.Disabled {
		return nil, true, fault.New(fault.UserMCPProxyPluginDisabled, "plugin %q is disabled in %s", name, m.File).At(spec.Pos).
			WithHint("remove `disabled: true` from its declaration, or stop using it in this workflow")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, true, closedError(name)
	}
	if h.mcps == nil {
		h.mcps = map[string]*mcpbridge.Server{}
	}
	s, ok := h.mcps[name]
	if !ok {
		s = mcpbridge.New(h.bridgeConfig(spec))
		h.mcps[name] = s
	}
	return s, true, nil
}

// bridgeConfig is what the bridge of spec is told: names and timeouts from plugins.yaml, and
// how the host starts the server.
func (h *Host) bridgeConfig(spec Spec) mcpbridge.Config {
	what := spec.Command
	if spec.MCP.URL != "" {
		what = spec.MCP.URL
	}
	log := h.opts.Logger.With(zap.String("plugin", spec.Name), zap.String("type", TypeMCP))
	cfg := mcpbridge.Config{
		Name: spec.Name, File: h.manifestFile(), What: what, Pos: spec.Pos,
		StartupTimeout: spec.MCP.StartupTimeout, CallTimeout: spec.MCP.CallTimeout,
		Annotations: spec.MCP.Annotations, MaxCrashes: h.opts.MaxCrashes, Logger: log,
		Launch:    func() (mcpbridge.Launch, error) { return h.launchMCP(spec, log) },
		KillGroup: killGroup,
	}
	if !h.opts.SDKOnly {
		cfg.Accelerator = rawcall.New
	}
	return cfg
}

// launchMCP prepares one start of a bridged server: the endpoint and its headers, or the
// command in its own process group (and network namespace under NoNetwork), with the scrubbed
// environment, its stderr logged and its tail kept for a failed start.
func (h *Host) launchMCP(spec Spec, log *zap.Logger) (mcpbridge.Launch, error) {
	env, err := pluginEnv(spec, h.manifestFile(), os.Environ())
	if err != nil {
		return mcpbridge.Launch{}, err
	}
	if err := h.refuseRemote(spec); err != nil {
		return mcpbridge.Launch{}, err
	}
	if u := spec.MCP.URL; u != "" {
		headers, err := expandPairs(spec, "header", spec.MCP.Headers, os.Environ(), h.manifestFile())
		return mcpbridge.Launch{URL: u, Headers: headers}, err
	}
	path, err := resolveCommand(h.opts.Root, h.manifestFile(), spec)
	if err != nil {
		return mcpbridge.Launch{}, err
	}
	cmd := exec.Command(path, spec.Args...)
	cmd.Env = env
	cmd.Dir = h.opts.Root
	if c := spec.MCP.Cwd; c != "" {
		cmd.Dir = c
		if !filepath.IsAbs(c) {
			cmd.Dir = filepath.Join(h.opts.Root, c)
		}
	}
	tail := &tailBuffer{max: 2048}
	cmd.Stderr = io.MultiWriter(tail, newLineLogger(log, "stderr"))
	// A process that escaped the tree's end and still holds the stderr pipe must not hold the
	// bridge's wait for the server (and `awf plugins list` with it): the pipe is closed then.
	cmd.WaitDelay = time.Second
	setProcAttr(cmd)
	if err := h.isolateNetwork(cmd); err != nil {
		return mcpbridge.Launch{}, err
	}
	// A launcher's grandchildren (npx, uvx, a script) end with the server; the grace stays under
	// the bridge's wait after SIGTERM.
	process.Contain(cmd, 500*time.Millisecond)
	return mcpbridge.Launch{Cmd: cmd, Stderr: tail}, nil
}

// fromBridge turns the bridge's ErrClosed into the host's own fault for a stopped plugin.
func (h *Host) fromBridge(name string, err error) error {
	if errors.Is(err, mcpbridge.ErrClosed) {
		return closedError(name)
	}
	return err
}

// SourceOf names where a plugin's tools come from in activity records: mcp:<name> for a
// bridged MCP server, plugin:<name> for an awf gRPC plugin.
func (h *Host) SourceOf(name string) tool.Source {
	if m, err := h.Manifest(); err == nil {
		if s, ok := m.Lookup(name); ok && s.isMCP() {
			return tool.MCPSource(name)
		}
	}
	return tool.PluginSource(name)
}

// closeMCP stops every MCP server; called by Close.
func (h *Host) closeMCP() {
	h.mu.Lock()
	ms := make([]*mcpbridge.Server, 0, len(h.mcps))
	for _, s := range h.mcps {
		ms = append(ms, s)
	}
	h.mu.Unlock()
	var wg sync.WaitGroup // each stop may wait out its server's grace: wait them out together
	for _, s := range ms {
		wg.Go(s.Stop)
	}
	wg.Wait()
}

// mcpStatus reports an MCP plugin without starting it.
func (h *Host) mcpStatus(name string) Status {
	h.mu.Lock()
	s := h.mcps[name]
	h.mu.Unlock()
	if s == nil {
		return Status{Name: name, State: StateNotStarted}
	}
	snap := s.Snapshot()
	st := Status{Name: name, State: StateNotStarted, Operations: snap.Operations, Description: "MCP server"}
	switch {
	case snap.Stopped:
		st.State = StateStopped
	case snap.Running:
		st.State, st.PID = StateRunning, snap.PID
	case snap.Failures > 0:
		st.State = StateFailed
	}
	return st
}
