package plugins

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

// ToolPin fingerprints one tool as its server or plugin lists it: the whole, and each part, so
// a refusal can say what changed. Annotations are part of it: a server that flips
// destructiveHint is caught like one that rewrites its description.
type ToolPin struct {
	Fingerprint  string `json:"fingerprint"`
	Description  string `json:"description"`
	InputSchema  string `json:"input_schema"`
	OutputSchema string `json:"output_schema"`
	Annotations  string `json:"annotations"`
}

// Lock is .awf/plugins.lock: pins by plugin, then by tool (the server's name).
type Lock struct {
	Version int                           `json:"version"`
	Plugins map[string]map[string]ToolPin `json:"plugins"`
}

func digest(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

func newPin(name string, desc, in, out, ann any) ToolPin {
	p := ToolPin{Description: digest(desc), InputSchema: digest(in), OutputSchema: digest(out), Annotations: digest(ann)}
	p.Fingerprint = digest([]string{name, p.Description, p.InputSchema, p.OutputSchema, p.Annotations})
	return p
}

// pinMCPTool pins a tool as the server listed it (the server's annotations, not the override).
func pinMCPTool(t *mcp.Tool) ToolPin {
	return newPin(t.Name, []string{t.Title, t.Description}, t.InputSchema, t.OutputSchema, t.Annotations)
}

// pinOperation pins a gRPC plugin's operation.
func pinOperation(op ports.PluginOperation) ToolPin {
	var in any
	_ = json.Unmarshal(op.InputSchema, &in)
	return newPin(op.Name, op.Description, in, op.OutputDescription, op.Annotations)
}

// Diff names the parts that differ between p (pinned) and q (now).
func (p ToolPin) Diff(q ToolPin) string {
	var parts []string
	for _, c := range []struct{ name, a, b string }{
		{"description", p.Description, q.Description},
		{"input schema", p.InputSchema, q.InputSchema},
		{"output schema", p.OutputSchema, q.OutputSchema},
		{"annotations", p.Annotations, q.Annotations},
	} {
		if c.a != c.b {
			parts = append(parts, c.name)
		}
	}
	if len(parts) == 0 {
		return "name"
	}
	return strings.Join(parts, ", ") + " changed"
}

// LockFile is where the host reads and writes pins: plugins.lock beside plugins.yaml.
func (h *Host) LockFile() string { return filepath.Join(filepath.Dir(h.opts.File), "plugins.lock") }

// ReadLock reads the lock; ok is false when there is none (nothing is pinned).
func (h *Host) ReadLock() (Lock, bool, error) {
	data, err := os.ReadFile(h.LockFile())
	if errors.Is(err, fs.ErrNotExist) {
		return Lock{}, false, nil
	}
	if err != nil {
		return Lock{}, false, fault.Wrap(err, fault.UserPluginsLockInvalid, "cannot read %s", h.LockFile())
	}
	var l Lock
	if err := json.Unmarshal(data, &l); err != nil {
		return Lock{}, false, fault.Wrap(err, fault.UserPluginsLockInvalid, "%s is not a plugins lock: %v", h.LockFile(), err).
			WithHint("run `awf plugins lock` to write it again")
	}
	return l, true, nil
}

// Pins lists every tool of every enabled plugin with its pin, starting the plugins.
func (h *Host) Pins(ctx context.Context) (Lock, error) {
	m, err := h.Manifest()
	if err != nil {
		return Lock{}, err
	}
	l := Lock{Version: 1, Plugins: map[string]map[string]ToolPin{}}
	for _, s := range m.Specs {
		if s.Disabled {
			continue
		}
		pins, err := h.currentPins(ctx, s.Name)
		if err != nil {
			return Lock{}, err
		}
		l.Plugins[s.Name] = pins
	}
	return l, nil
}

// WriteLock pins every tool of every enabled plugin into the lock file.
func (h *Host) WriteLock(ctx context.Context) (Lock, error) {
	l, err := h.Pins(ctx)
	if err != nil {
		return l, err
	}
	b, _ := json.MarshalIndent(l, "", "  ")
	return l, os.WriteFile(h.LockFile(), append(b, '\n'), 0o644)
}

// Drift compares the lock with what the plugins list now: one line per new, changed or gone tool.
func Drift(locked, now Lock) []string {
	var out []string
	for plugin, tools := range now.Plugins {
		for name, pin := range tools {
			old, ok := locked.Plugins[plugin][name]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("plugin %s: tool %s is new", plugin, name))
			case old.Fingerprint != pin.Fingerprint:
				out = append(out, fmt.Sprintf("plugin %s: tool %s: %s", plugin, name, old.Diff(pin)))
			}
		}
	}
	for plugin, tools := range locked.Plugins {
		for name := range tools {
			if _, ok := now.Plugins[plugin][name]; !ok {
				out = append(out, fmt.Sprintf("plugin %s: tool %s is gone", plugin, name))
			}
		}
	}
	sort.Strings(out)
	return out
}

// currentPins returns the pins of what plugin lists now.
func (h *Host) currentPins(ctx context.Context, plugin string) (map[string]ToolPin, error) {
	if mi, ok, err := h.mcp(plugin); err != nil || ok {
		if err != nil {
			return nil, err
		}
		_, pins, err := mi.operations(ctx)
		return pins, err
	}
	ops, err := h.Operations(ctx, plugin)
	if err != nil {
		return nil, err
	}
	pins := make(map[string]ToolPin, len(ops))
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
	var problems []string
	for _, t := range tools {
		old, pinned := l.Plugins[plugin][t]
		cur := now[t]
		switch {
		case !pinned:
			problems = append(problems, fmt.Sprintf("tool %q is not pinned", t))
		case old.Fingerprint != cur.Fingerprint:
			problems = append(problems, fmt.Sprintf("tool %q: %s", t, old.Diff(cur)))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fault.New(fault.UserMCPProxyToolChanged, "plugin %q differs from %s: %s", plugin, h.LockFile(), strings.Join(problems, "; ")).
		WithHint("review the change, then run `awf plugins lock` to pin the tools as they are now")
}
