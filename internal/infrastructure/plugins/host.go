package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/suggest"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/accel"
	"github.com/awf-dev/awf/internal/infrastructure/tools/mcpbridge"
)

// Defaults of Options.
const (
	DefaultStartTimeout    = 10 * time.Second
	DefaultShutdownTimeout = 2 * time.Second
	DefaultMaxCrashes      = 3
)

// Options configure a Host.
type Options struct {
	// Root is the project root: relative commands resolve against it and plugins run in it.
	// Empty: derived from File, else the current directory.
	Root string
	// File is plugins.yaml; default <Root>/.awf/plugins.yaml.
	File string
	// Logger receives the host's events and the plugins' own log lines. nil → no logs.
	Logger *zap.Logger
	// StartTimeout bounds starting one plugin: process, handshake, Info, Init and
	// ListOperations. Default DefaultStartTimeout.
	StartTimeout time.Duration
	// ShutdownTimeout bounds the Shutdown call each plugin gets on Close. Default
	// DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// MaxCrashes is how many times in a row a plugin may die before the host stops restarting
	// it. Default DefaultMaxCrashes.
	MaxCrashes int
	// NoNetwork starts every plugin process (gRPC plugins and stdio MCP servers) in fresh user
	// and network namespaces, with no interface but a loopback that is down: a step's
	// mcp_proxy.sandbox.network: false (docs/decisions/0012-kernel-sandbox.md). An MCP server reached by url: is refused.
	NoNetwork bool
	// RemoteAllowed, under NoNetwork, lets through an MCP server reached by url: whose address
	// the step's network allow list covers (docs/decisions/0028-egress-proxy.md); nil refuses
	// every one.
	RemoteAllowed func(rawURL string) bool
	// SDKOnly calls bridged stdio MCP servers through the go-sdk's client alone, without the
	// rawcall accelerator; New also sets it when AWF_ACCEL_OFF names bridge-raw (package accel).
	SDKOnly bool
}

// Host runs the plugins of one plugins.yaml. It is safe for concurrent use.
type Host struct {
	opts Options
	done chan struct{} // closed by Close: starts in flight abort, new calls fail

	loadOnce sync.Once
	manifest *Manifest
	loadErr  error

	mu        sync.Mutex
	instances map[string]*instance
	mcps      map[string]*mcpbridge.Server
	closed    bool
	closeOnce sync.Once
}

var (
	_ ports.PluginRegistry    = (*Host)(nil)
	_ ports.OperationProvider = (*Host)(nil)
)

// New returns a host. It reads nothing and starts nothing until first asked. With only File
// set, the project root is the directory holding its .awf directory (or the file's directory).
func New(opts Options) *Host {
	if opts.Root == "" && opts.File != "" {
		dir := filepath.Dir(opts.File)
		if filepath.Base(dir) == ".awf" {
			dir = filepath.Dir(dir)
		}
		opts.Root = dir
	}
	if opts.File == "" {
		opts.File = filepath.Join(opts.Root, ".awf", "plugins.yaml")
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = DefaultShutdownTimeout
	}
	if opts.MaxCrashes <= 0 {
		opts.MaxCrashes = DefaultMaxCrashes
	}
	opts.SDKOnly = opts.SDKOnly || !accel.On(accel.BridgeRaw)
	return &Host{opts: opts, done: make(chan struct{}), instances: map[string]*instance{}}
}

// Manifest loads plugins.yaml once and returns it.
func (h *Host) Manifest() (*Manifest, error) {
	h.loadOnce.Do(func() { h.manifest, h.loadErr = LoadManifest(h.opts.File) })
	return h.manifest, h.loadErr
}

// Plugins lists the declared plugins in file order (ports.PluginRegistry).
func (h *Host) Plugins(context.Context) ([]ports.PluginDecl, error) {
	m, err := h.Manifest()
	if err != nil {
		return nil, err
	}
	out := make([]ports.PluginDecl, 0, len(m.Specs))
	for _, s := range m.Specs {
		out = append(out, ports.PluginDecl{Name: s.Name, Disabled: s.Disabled, Pos: s.Pos, Remote: s.Type == TypeMCP && s.MCP.URL != "", URL: remoteURL(s)})
	}
	return out, nil
}

// Operations starts the plugin if needed and returns what it lists.
func (h *Host) Operations(ctx context.Context, name string) ([]ports.PluginOperation, error) {
	if mi, ok, err := h.mcp(name); err != nil || ok {
		if err != nil {
			return nil, err
		}
		ops, _, err := mi.Operations(ctx)
		return ops, h.fromBridge(name, err)
	}
	inst, err := h.instance(name)
	if err != nil {
		return nil, err
	}
	conn, err := inst.connect(ctx)
	if err != nil {
		return nil, err
	}
	return append([]ports.PluginOperation(nil), conn.ops...), nil
}

// Execute runs one operation (ports.OperationProvider).
func (h *Host) Execute(ctx context.Context, name, operation string, args json.RawMessage) (tool.Result, error) {
	if mi, ok, err := h.mcp(name); err != nil || ok {
		if err != nil {
			return tool.Result{}, err
		}
		res, err := mi.Execute(ctx, operation, args)
		return res, h.fromBridge(name, err)
	}
	inst, err := h.instance(name)
	if err != nil {
		return tool.Result{}, err
	}
	return inst.execute(ctx, operation, args)
}

// Status reports one declared plugin without starting it.
func (h *Host) Status(name string) (Status, error) {
	m, err := h.Manifest()
	if err != nil {
		return Status{}, err
	}
	spec, ok := m.Lookup(name)
	if !ok {
		return Status{}, h.unknown(m, name)
	}
	if spec.Disabled {
		return Status{Name: name, State: StateDisabled}, nil
	}
	if spec.isMCP() {
		return h.mcpStatus(name), nil
	}
	h.mu.Lock()
	inst := h.instances[name]
	h.mu.Unlock()
	if inst == nil {
		return Status{Name: name, State: StateNotStarted}, nil
	}
	return inst.status(), nil
}

// Close stops every plugin: each gets a Shutdown call, then its process (and process group) is
// stopped. Starts in flight are aborted; calls made after Close fail with EXECUTION.PLUGIN.CLOSED.
// It waits until the processes are gone and is idempotent.
func (h *Host) Close() error {
	h.closeOnce.Do(func() {
		h.mu.Lock()
		h.closed = true
		close(h.done)
		insts := make([]*instance, 0, len(h.instances))
		for _, inst := range h.instances {
			insts = append(insts, inst)
		}
		h.mu.Unlock()
		var wg sync.WaitGroup
		for _, inst := range insts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				inst.stop()
			}()
		}
		wg.Wait()
		h.closeMCP()
	})
	return nil
}

// instance returns the runtime state of a declared, enabled plugin, creating it on first use.
func (h *Host) instance(name string) (*instance, error) {
	m, err := h.Manifest()
	if err != nil {
		return nil, err
	}
	spec, ok := m.Lookup(name)
	if !ok {
		return nil, h.unknown(m, name)
	}
	if spec.Disabled {
		return nil, fault.New(fault.UserMCPProxyPluginDisabled, "plugin %q is disabled in %s", name, m.File).At(spec.Pos).
			WithHint("remove `disabled: true` from its declaration, or stop using it in this workflow")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, closedError(name)
	}
	inst, ok := h.instances[name]
	if !ok {
		inst = newInstance(h, spec)
		h.instances[name] = inst
	}
	return inst, nil
}

func (h *Host) unknown(m *Manifest, name string) error {
	e := fault.New(fault.UserMCPProxyUnknownPlugin, "plugin %q is not declared in %s", name, m.File)
	switch {
	case !m.Exists:
		return e.WithHint("create %s declaring it: `plugins: {%s: {command: bin/plugins/%s}}`", m.File, name, name)
	case len(m.Specs) == 0:
		return e.WithHint("%s declares no plugins; add `%s: {command: …}` under `plugins:`", m.File, name)
	}
	return e.WithHint("%s", suggest.DidYouMean(name, m.Names()))
}

func closedError(name string) error {
	return fault.New(fault.ExecutionPluginClosed, "plugin %q was stopped: the step using it has ended", name).
		WithHint("this call came after the tool server shut down; it is safe to ignore")
}

// isClosed reports whether Close has been called.
func (h *Host) isClosed() bool {
	select {
	case <-h.done:
		return true
	default:
		return false
	}
}

// errClosed is returned internally by a start that Close aborted.
var errClosed = errors.New("plugin host closed")

// remoteURL is the url: of a remote MCP server, "" for any other plugin.
func remoteURL(s Spec) string {
	if s.Type != TypeMCP {
		return ""
	}
	return s.MCP.URL
}
