package plugins

import (
	"net/url"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// Plugin types: an awf gRPC plugin (the default) or an MCP server bridged as a plugin (docs/decisions/0013-bridged-mcp-servers.md).
const (
	TypeGRPC = "grpc"
	TypeMCP  = "mcp"
)

// Defaults of an MCP plugin's timeouts.
const (
	DefaultMCPStartupTimeout = 30 * time.Second
	DefaultMCPCallTimeout    = 5 * time.Minute
)

// MCPSpec is what `type: mcp` adds to a plugin: a stdio server (Spec.Command, Args, Env, Cwd)
// or a Streamable HTTP server (URL, Headers), its timeouts, and the user's annotations, which
// win over the server's.
type MCPSpec struct {
	Cwd     string
	URL     string
	URLPos  fault.Position
	Headers []string // Name=Value in file order; values may hold ${VAR}
	// StartupTimeout bounds start and initialize; CallTimeout each tool call.
	StartupTimeout time.Duration
	CallTimeout    time.Duration
	// Annotations are the user's overrides by tool name (the server's name, not the prefixed one).
	Annotations map[string]tool.Annotations
}

var mcpKeys = []string{"type", "cwd", "url", "headers", "startup_timeout", "call_timeout", "annotations"}

// mcpKey parses one key that only MCP plugins take; false means the key is unknown.
func (p *parser) mcpKey(s *Spec, key, val *yaml.Node) bool {
	what := func(k string) string { return k + " of plugin " + s.Name }
	switch key.Value {
	case "type":
		s.Type = p.str(val, what("type"))
		if s.Type != TypeGRPC && s.Type != TypeMCP {
			p.errorf(val, fault.UserPluginsInvalidValue, "write `type: mcp` for an MCP server, or leave it out for an awf gRPC plugin",
				"type of plugin %q must be grpc or mcp, got %q", s.Name, s.Type)
		}
	case "cwd":
		s.MCP.Cwd = p.str(val, what("cwd"))
	case "url":
		s.MCP.URL, s.MCP.URLPos = p.str(val, what("url")), p.pos(val)
		if u, err := url.Parse(s.MCP.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			p.errorf(val, fault.UserPluginsInvalidURL, "write the server's Streamable HTTP endpoint, e.g. http://127.0.0.1:8931/mcp",
				"url of plugin %q is not an http(s) URL: %q", s.Name, s.MCP.URL)
		}
	case "headers":
		for _, hv := range p.pairs(val, what("headers"), "`{Authorization: \"Bearer ${TOKEN}\"}`") {
			s.MCP.Headers = append(s.MCP.Headers, hv[0].Value+"="+p.str(hv[1], "header "+hv[0].Value+" of plugin "+s.Name))
		}
	case "startup_timeout":
		s.MCP.StartupTimeout = p.duration(val, what("startup_timeout"))
	case "call_timeout":
		s.MCP.CallTimeout = p.duration(val, what("call_timeout"))
	case "annotations":
		s.MCP.Annotations = p.annotations(val, s.Name)
	default:
		return false
	}
	return true
}

// mcpDone checks an MCP plugin as a whole once its keys are read: exactly one of command and
// url, and no key of the other kind.
func (p *parser) mcpDone(s *Spec, k *yaml.Node, hasCommand bool) bool {
	if s.MCP.StartupTimeout <= 0 {
		s.MCP.StartupTimeout = DefaultMCPStartupTimeout
	}
	if s.MCP.CallTimeout <= 0 {
		s.MCP.CallTimeout = DefaultMCPCallTimeout
	}
	switch {
	case hasCommand && s.MCP.URL != "":
		p.errorf(k, fault.UserPluginsInvalidValue, "keep `command` for a stdio server or `url` for a Streamable HTTP server, not both",
			"MCP plugin %q has both command and url", s.Name)
		return false
	case !hasCommand && s.MCP.URL == "":
		p.errorf(k, fault.UserPluginsMissingCommand, "add `command: npx` (with args) for a stdio server, or `url: http://…/mcp` for a Streamable HTTP one",
			"MCP plugin %q has neither command nor url", s.Name)
		return false
	}
	return true
}

// isMCP reports whether the plugin is an MCP server bridged by awf.
func (s Spec) isMCP() bool { return s.Type == TypeMCP }

func (p *parser) duration(n *yaml.Node, what string) time.Duration {
	v := p.str(n, what)
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil || d <= 0 {
		p.errorf(n, fault.UserPluginsInvalidValue, "write a positive duration such as 30s or 2m", "%s must be a duration, got %q", what, v)
		return 0
	}
	return d
}

var annotationKeys = []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// annotations reads `annotations: {tool: {readOnlyHint: true, …}}`.
func (p *parser) annotations(n *yaml.Node, plugin string) map[string]tool.Annotations {
	out := map[string]tool.Annotations{}
	for _, tv := range p.pairs(n, "annotations of plugin "+plugin, "`{get-sum: {readOnlyHint: true}}`") {
		var a tool.Annotations
		for _, kv := range p.pairs(tv[1], "annotations of tool "+tv[0].Value, "`{readOnlyHint: true}`") {
			what := kv[0].Value + " of tool " + tv[0].Value + " of plugin " + plugin
			switch kv[0].Value {
			case "title":
				a.Title = p.str(kv[1], what)
			case "readOnlyHint":
				a.ReadOnlyHint = tool.Bool(p.boolean(kv[1], what))
			case "destructiveHint":
				a.DestructiveHint = tool.Bool(p.boolean(kv[1], what))
			case "idempotentHint":
				a.IdempotentHint = tool.Bool(p.boolean(kv[1], what))
			case "openWorldHint":
				a.OpenWorldHint = tool.Bool(p.boolean(kv[1], what))
			default:
				p.unknownKey(kv[0], "in the annotations of tool "+tv[0].Value, annotationKeys)
			}
		}
		out[tv[0].Value] = a
	}
	return out
}
