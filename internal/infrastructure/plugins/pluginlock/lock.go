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
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
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

// NewPin pins a tool from its parts as JSON values, so a gRPC operation and an MCP tool that
// list the same thing pin alike and a change to any part moves the fingerprint.
func NewPin(name string, desc, in, out, ann any) ToolPin {
	p := ToolPin{Description: digest(desc), InputSchema: digest(in), OutputSchema: digest(out), Annotations: digest(ann)}
	p.Fingerprint = digest([]string{name, p.Description, p.InputSchema, p.OutputSchema, p.Annotations})
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

// Write writes l to file, indented for review in a diff.
func Write(file string, l Lock) error {
	b, _ := json.MarshalIndent(l, "", "  ")
	return os.WriteFile(file, append(b, '\n'), 0o644)
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
