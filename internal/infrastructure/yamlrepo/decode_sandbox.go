package yamlrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// sandboxKeys are the keys of mcp_proxy.sandbox (docs/decisions/0012-kernel-sandbox.md).
var sandboxKeys = []string{"mode", "network", "writable", "readable"}

// sandboxModes are the values of mcp_proxy.sandbox.mode.
var sandboxModes = []string{"auto", "required", "off"}

// sandbox decodes mcp_proxy.sandbox into s (which holds the defaults).
func (l *loader) sandbox(n *yaml.Node, pm posMaps, s *workflow.SandboxSettings) {
	b := block{"mcp_proxy.sandbox", "`sandbox: {mode: auto, network: false}`", sandboxKeys, fault.UserSandboxInvalid, "in mcp_proxy.sandbox"}
	l.fields(n, b, pm, "sandbox.", func(f entry) {
		switch f.Key {
		case "mode":
			s.Mode = l.str(f.V, "sandbox.mode")
			if !contains(sandboxModes, s.Mode) {
				l.Diags.Errorf(l.Pos(f.V), fault.UserSandboxInvalid, "write auto, required or off",
					"mcp_proxy.sandbox.mode %q is not a mode", s.Mode)
				s.Mode = "auto"
			}
		case "network":
			if f.V.Kind == yaml.MappingNode {
				s.Network, s.Egress = false, l.egress(f.V, pm)
				break
			}
			s.Network = l.boolean(f.V, "sandbox.network", true)
		case "writable":
			paths, pos, _ := l.strList(f.V, "sandbox.writable", "`writable: [../build-cache]`")
			s.Writable = paths
			for j, p := range pos {
				pm.keys[fmt.Sprintf("sandbox.writable[%d]", j)] = p
				pm.values[fmt.Sprintf("sandbox.writable[%d]", j)] = p
			}
		case "readable":
			s.Readable, _, _ = l.strList(f.V, "sandbox.readable", "`readable: [~/.npmrc]`")
		}
	})
}

// checkWritable reports each sandbox.writable path of an agent step that does not exist. A
// relative path is resolved against the step's dir, itself relative to the project root (the
// directory holding .awf/); templated paths and paths under a templated dir are checked when
// the step runs.
func (l *loader) checkWritable(a *workflow.AgentSpec) {
	if a.MCPProxy == nil || len(a.MCPProxy.Sandbox.Writable) == 0 || strings.Contains(a.Dir, "{{") {
		return
	}
	base := projectRoot(l.File)
	if a.Dir != "" {
		if filepath.IsAbs(a.Dir) {
			base = a.Dir
		} else {
			base = filepath.Join(base, a.Dir)
		}
	}
	for i, w := range a.MCPProxy.Sandbox.Writable {
		if w == "" || strings.Contains(w, "{{") {
			continue
		}
		path := w
		if !filepath.IsAbs(path) {
			path = filepath.Join(base, path)
		}
		if _, err := os.Stat(path); err != nil {
			l.Diags.Errorf(a.MCPProxy.ValuePos[fmt.Sprintf("sandbox.writable[%d]", i)], fault.UserSandboxInvalid,
				"create it first, or remove it from mcp_proxy.sandbox.writable",
				"mcp_proxy.sandbox.writable path %q does not exist (resolved to %s)", w, path)
		}
	}
}

// projectRoot is the directory holding the .awf/ directory file is under, or file's directory.
func projectRoot(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.Dir(file)
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if filepath.Base(d) == ".awf" {
			return filepath.Dir(d)
		}
		if filepath.Dir(d) == d {
			return filepath.Dir(abs)
		}
	}
}
