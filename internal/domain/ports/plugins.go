package ports

import (
	"context"
	"encoding/json"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// PluginDecl is one plugin as declared in plugins.yaml.
type PluginDecl struct {
	Name     string
	Disabled bool
	// Remote: an MCP server reached over HTTP (url:), which no namespace of awf's can confine.
	Remote bool
	// URL is a remote server's address, which a step's network allow list must cover.
	URL string
	// Pos is where the plugin's name is written in plugins.yaml.
	Pos fault.Position
}

// PluginOperation is one operation a running plugin lists.
type PluginOperation struct {
	Name        string
	Description string
	// Title, OutputSchema, Icons and Meta are a bridged MCP server's tool definition's title,
	// outputSchema, icons and _meta, passed on to agents unchanged (JSON; nil when not sent).
	Title        string
	OutputSchema json.RawMessage
	Icons        json.RawMessage
	Meta         json.RawMessage
	// InputSchema is the JSON Schema as the plugin sent it (nil: no arguments).
	InputSchema json.RawMessage
	// OutputDescription says what a successful result holds; may be empty.
	OutputDescription string
	// Annotations keep "not said" apart from "false" (pointer hints).
	Annotations tool.Annotations
	// AnnotationsFrom says where the annotations came from, for `awf plugins list`: "" for a
	// gRPC plugin (its own declaration); for a bridged MCP server "server", "override" (the
	// user's plugins.yaml, in part or whole) or "default" (unannotated: the MCP defaults).
	AnnotationsFrom string
}

// PluginRegistry is what validation needs to know about plugins: which are declared, and what
// a declared plugin lists (which may start it).
type PluginRegistry interface {
	// Plugins returns the declarations in file order; none when there is no plugins file. An
	// error whose chain holds a DiagnosticsError means the file is invalid, with one positioned
	// diagnostic per problem.
	Plugins(ctx context.Context) ([]PluginDecl, error)
	// Operations starts the plugin if it is not running and returns what it lists. Unknown and
	// disabled names are coded errors (fault.UserMCPProxyUnknownPlugin, fault.UserMCPProxyPluginDisabled).
	Operations(ctx context.Context, plugin string) ([]PluginOperation, error)
}

// OperationProvider runs plugin operations; the plugin tool adapter turns one into tools.
type OperationProvider interface {
	// Operations is as in PluginRegistry.
	Operations(ctx context.Context, plugin string) ([]PluginOperation, error)
	// Execute runs one operation with JSON object arguments. A result with IsError is the
	// operation's own failure; an error means the plugin could not answer (it crashed, could
	// not start, or ctx ended) and names the plugin.
	Execute(ctx context.Context, plugin, operation string, args json.RawMessage) (tool.Result, error)
}

// DiagnosticsError is an error that carries several positioned problems, such as an invalid
// plugins.yaml, so that validation can report each at its place instead of one opaque error.
type DiagnosticsError interface {
	error
	Diagnostics() fault.Diagnostics
}
