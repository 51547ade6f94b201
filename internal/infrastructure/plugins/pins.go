package plugins

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/pluginlock"
)

// pinOperation pins a gRPC plugin's operation.
func pinOperation(op ports.PluginOperation) pluginlock.ToolPin {
	var in any
	_ = json.Unmarshal(op.InputSchema, &in)
	return pluginlock.NewPin(op.Name, op.Description, in, op.OutputDescription, op.Annotations)
}

// LockFile is where the host reads and writes pins: plugins.lock beside plugins.yaml.
func (h *Host) LockFile() string { return filepath.Join(filepath.Dir(h.opts.File), "plugins.lock") }

// ReadLock reads the lock; ok is false when there is none (nothing is pinned).
func (h *Host) ReadLock() (pluginlock.Lock, bool, error) { return pluginlock.Read(h.LockFile()) }

// Pins lists every tool of every enabled plugin with its pin, starting the plugins.
func (h *Host) Pins(ctx context.Context) (pluginlock.Lock, error) {
	m, err := h.Manifest()
	if err != nil {
		return pluginlock.Lock{}, err
	}
	l := pluginlock.Lock{Version: 1, Plugins: map[string]map[string]pluginlock.ToolPin{}}
	for _, s := range m.Specs {
		if s.Disabled {
			continue
		}
		pins, err := h.currentPins(ctx, s.Name)
		if err != nil {
			return pluginlock.Lock{}, err
		}
		l.Plugins[s.Name] = pins
	}
	return l, nil
}

// currentPins returns the pins of what plugin lists now.
func (h *Host) currentPins(ctx context.Context, plugin string) (map[string]pluginlock.ToolPin, error) {
	if s, ok, err := h.mcp(plugin); err != nil || ok {
		if err != nil {
			return nil, err
		}
		// The bridge pins each tool's whole definition (mcpbridge's pinTool): the lock and a
		// step's mid-step check compare the same fingerprint.
		_, pins, err := s.Operations(ctx)
		return pins, h.fromBridge(plugin, err)
	}
	ops, err := h.Operations(ctx, plugin)
	if err != nil {
		return nil, err
	}
	pins := make(map[string]pluginlock.ToolPin, len(ops))
	for _, op := range ops {
		pins[op.Name] = pinOperation(op)
	}
	return pins, nil
}

// CheckPins refuses exposed tools that are new or changed since `awf plugins lock`, with
// USER.MCP_PROXY.TOOL_CHANGED naming each and what changed. Without a lock nothing is pinned.
func (h *Host) CheckPins(ctx context.Context, plugin string, tools []string) error {
	l, ok, err := h.ReadLock()
	if err != nil || !ok {
		return err
	}
	now, err := h.currentPins(ctx, plugin)
	if err != nil {
		return err
	}
	problems := pluginlock.Problems(l.Plugins[plugin], now, tools)
	if len(problems) == 0 {
		return nil
	}
	return fault.New(fault.UserMCPProxyToolChanged, "plugin %q differs from %s: %s", plugin, h.LockFile(), strings.Join(problems, "; ")).
		WithHint("review the change, then run `awf plugins lock` to pin the tools as they are now")
}
