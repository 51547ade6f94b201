package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// maxManifestSize bounds what LoadManifest reads: plugins.yaml is hand-written and small.
const maxManifestSize = 1 << 20

// pluginName is what a plugin may be called: it prefixes tool names (<plugin>_<operation>), so
// it must keep them valid MCP names.
var pluginName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// Spec is one plugin declared in plugins.yaml.
type Spec struct {
	Name string
	// Command as written; Host resolves it against the project root.
	Command string
	Args    []string
	// Env holds KEY=VALUE pairs in file order, added to awf's own environment.
	Env []string
	// Config is the `config:` block as a JSON object ("{}" when absent), handed to Init.
	Config json.RawMessage
	// Disabled plugins are declared but may not be used.
	Disabled bool
	// MCP holds the `type: mcp` settings; Type is TypeGRPC or TypeMCP.
	Type string
	MCP  MCPSpec
	// Pos is where the plugin's name is written; CommandPos where its command value is.
	Pos        fault.Position
	CommandPos fault.Position
}

// Manifest is a loaded plugins.yaml.
type Manifest struct {
	// File is the path read; Exists is false when there was no file (no plugins declared).
	File   string
	Exists bool
	// Specs in file order.
	Specs []Spec
}

// Lookup returns the plugin declared as name.
func (m *Manifest) Lookup(name string) (Spec, bool) {
	for _, s := range m.Specs {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Names returns the declared names in file order, for did-you-mean hints.
func (m *Manifest) Names() []string {
	out := make([]string, 0, len(m.Specs))
	for _, s := range m.Specs {
		out = append(out, s.Name)
	}
	return out
}

// ManifestError lists every problem of a plugins.yaml with its position. It implements
// ports.DiagnosticsError so validation reports each at its line.
type ManifestError struct {
	File  string
	Diags fault.Diagnostics
}

// Diagnostics returns the problems, sorted by position.
func (e *ManifestError) Diagnostics() fault.Diagnostics { return e.Diags }

// Error lists every problem of the plugins file, one per line.
func (e *ManifestError) Error() string {
	lines := make([]string, 0, len(e.Diags)+1)
	lines = append(lines, fmt.Sprintf("%s has %d problem(s):", e.File, len(e.Diags)))
	for _, d := range e.Diags {
		lines = append(lines, "  "+d.String())
	}
	return strings.Join(lines, "\n")
}

// LoadManifest reads plugins.yaml at path. A missing file is an empty manifest, not an error:
// a project without plugins needs no file. Every problem of the file is reported at once, as a
// USER.PLUGINS.INVALID fault wrapping a *ManifestError.
func LoadManifest(path string) (*Manifest, error) {
	m := &Manifest{File: path}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m, nil
	case err != nil:
		return nil, fault.Wrap(err, fault.UserPluginsUnreadable, "cannot read %s", path).WithHint("check the file's permissions")
	case !info.Mode().IsRegular():
		return nil, fault.New(fault.UserPluginsUnreadable, "%s is not a regular file", path).WithHint("plugins.yaml must be a YAML file")
	case info.Size() > maxManifestSize:
		return nil, fault.New(fault.UserPluginsUnreadable, "%s is %d bytes, more than the %d allowed", path, info.Size(), maxManifestSize).
			WithHint("plugins.yaml only declares plugins; keep data elsewhere")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fault.Wrap(err, fault.UserPluginsUnreadable, "cannot read %s", path).WithHint("check the file's permissions")
	}
	return ParseManifest(path, data)
}

// ParseManifest parses plugins.yaml content; file labels positions.
func ParseManifest(file string, data []byte) (*Manifest, error) {
	p := newParser(file)
	m := &Manifest{File: file, Exists: true}
	if root := p.document(data); root != nil {
		m.Specs = p.top(root)
	}
	if len(p.Diags) > 0 {
		p.Diags.Sort()
		me := &ManifestError{File: file, Diags: p.Diags}
		return nil, fault.Wrap(me, fault.UserPluginsInvalid, "%s", me.Error())
	}
	return m, nil
}
