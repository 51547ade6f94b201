// Package pluginlock is .awf/plugins.lock: the fingerprint of every tool a plugin or bridged
// MCP server lists, written by `awf plugins lock` and checked before a step exposes a tool, so
// a server that rewrites a description or flips an annotation is caught before an agent sees
// it. It only reads, writes and compares pins; the plugin host lists the tools.
package pluginlock

import (
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

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/toolscan"
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
	// Extra fingerprints the parts of an MCP definition beyond the above (icons, _meta); empty
	// when the tool has none, so locks written before it still match.
	Extra string `json:"extra,omitempty"`
	// Accepted is the Fingerprint the user accepted with `awf plugins lock --accept` despite a
	// high scan finding; a definition that changes since is held again.
	Accepted string `json:"accepted,omitempty"`
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

// NewPin pins a tool from its parts as JSON values, so a gRPC operation and an MCP tool that
// list the same thing pin alike and a change to any part moves the fingerprint.
func NewPin(name string, desc, in, out, ann any) ToolPin {
	p := ToolPin{Description: digest(desc), InputSchema: digest(in), OutputSchema: digest(out), Annotations: digest(ann)}
	p.Fingerprint = digest([]string{name, p.Description, p.InputSchema, p.OutputSchema, p.Annotations})
	return p
}

// WithExtra folds the rest of a definition (an MCP tool's icons and _meta) into the pin, so
// the fingerprint covers the whole definition; nil leaves the pin as it is.
func (p ToolPin) WithExtra(extra any) ToolPin {
	if extra == nil {
		return p
	}
	p.Extra = digest(extra)
	p.Fingerprint = digest([]string{p.Fingerprint, p.Extra})
	return p
}

// Diff names the parts that differ between p (pinned) and q (now).
func (p ToolPin) Diff(q ToolPin) string {
	var parts []string
	for _, c := range []struct{ name, a, b string }{
		{"description", p.Description, q.Description},
		{"input schema", p.InputSchema, q.InputSchema},
		{"output schema", p.OutputSchema, q.OutputSchema},
		{"annotations", p.Annotations, q.Annotations},
		{"icons or _meta", p.Extra, q.Extra},
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

// Read reads the lock at file; ok is false when there is none (nothing is pinned).
func Read(file string) (Lock, bool, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return Lock{}, false, nil
	}
	if err != nil {
		return Lock{}, false, fault.Wrap(err, fault.UserPluginsLockInvalid, "cannot read %s", file)
	}
	var l Lock
	if err := json.Unmarshal(data, &l); err != nil {
		return Lock{}, false, fault.Wrap(err, fault.UserPluginsLockInvalid, "%s is not a plugins lock: %v", file, err).
			WithHint("run `awf plugins lock` to write it again")
	}
	return l, true, nil
}

// Write writes l to file, indented for review in a diff, through a temp file renamed over it
// so a reader (a step starting meanwhile) sees the old lock or the new one, never half.
func Write(file string, l Lock) error {
	b, _ := json.MarshalIndent(l, "", "  ")
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+"-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644) // committed and read by everyone who runs the project
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
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

// Problems lists, for the tools a step exposes, those that are not pinned or whose pin moved
// between locked and now; empty when every one matches.
func Problems(locked, now map[string]ToolPin, tools []string) []string {
	var problems []string
	for _, t := range tools {
		old, pinned := locked[t]
		cur := now[t]
		switch {
		case !pinned:
			problems = append(problems, fmt.Sprintf("tool %q is not pinned", t))
		case old.Fingerprint != cur.Fingerprint:
			problems = append(problems, fmt.Sprintf("tool %q: %s", t, old.Diff(cur)))
		}
	}
	return problems
}

// IsAccepted reports whether the user accepted tool of plugin exactly as fingerprint describes it.
func (l Lock) IsAccepted(plugin, tool, fingerprint string) bool {
	p, ok := l.Plugins[plugin][tool]
	return ok && p.Accepted != "" && p.Accepted == fingerprint
}

// CarryAccepted keeps in now the acceptances of old whose tool has not changed since, so
// writing the lock again does not forget them and a changed tool must be accepted again.
func CarryAccepted(old, now Lock) {
	for plugin, tools := range now.Plugins {
		for name, pin := range tools {
			if old.IsAccepted(plugin, name, pin.Fingerprint) {
				pin.Accepted = pin.Fingerprint
				tools[name] = pin
			}
		}
	}
}

// Accept marks tool of plugin accepted as it is in l now; an unknown one is an error naming
// what there is.
func (l Lock) Accept(plugin, tool string) error {
	tools, ok := l.Plugins[plugin]
	if !ok {
		return fault.New(fault.UserMCPProxyUnknownPlugin, "--accept %s/%s: no enabled plugin %q", plugin, tool, plugin).
			WithHint("write --accept <plugin>/<tool> with a plugin of .awf/plugins.yaml")
	}
	pin, ok := tools[tool]
	if !ok {
		names := make([]string, 0, len(tools))
		for n := range tools {
			names = append(names, toolscan.Escape(n))
		}
		sort.Strings(names)
		return fault.New(fault.UserMCPProxyUnknownOperation, "--accept %s/%s: plugin %q lists no tool %q", plugin, tool, plugin, tool).
			WithHint("its tools are: %s", strings.Join(names, ", "))
	}
	pin.Accepted = pin.Fingerprint
	tools[tool] = pin
	return nil
}
