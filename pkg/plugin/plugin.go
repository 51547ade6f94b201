package plugin

import (
	"context"
	"encoding/json"
)

// Plugin describes one plugin program: who it is, what it can do, and the hooks awf calls
// around its life.
type Plugin struct {
	// Name the plugin calls itself; awf addresses it by the name it is declared under in
	// plugins.yaml and shows this one in `awf plugins list`.
	Name string
	// Version is free text, semver recommended.
	Version string
	// Description is one sentence about the plugin.
	Description string
	// Operations the plugin offers. Names must be unique.
	Operations []Operation
	// Init, optional, receives the plugin's `config:` block from plugins.yaml as a JSON object
	// before any operation runs. An error stops the plugin from being used and is shown to the
	// user, so it should name the config key to fix.
	Init func(ctx context.Context, config json.RawMessage) error
	// Shutdown, optional, is called before awf stops the process: flush and close here.
	Shutdown func(ctx context.Context) error
}

// Operation is one thing the plugin can do, exposed to an agent as tool <plugin>_<Name>.
type Operation struct {
	// Name: letters, digits, '_' or '-', at most 64 characters.
	Name string
	// Description tells a model when and how to use the operation; it is the tool description.
	Description string
	// InputSchema is a JSON Schema document (draft 2020-12 or draft-07) with "type": "object"
	// at the top. awf lists it to agents as written (nested objects, arrays, enums and defaults
	// included) and checks every call's arguments against it before the handler runs. Empty
	// means the operation takes no arguments.
	InputSchema string
	// OutputDescription, optional, says what a successful result holds.
	OutputDescription string
	// Annotations are the MCP behaviour hints awf's intent rule reads.
	Annotations Annotations
	// Handler runs the operation.
	Handler Handler
}

// Handler runs one call. args is the JSON object the agent sent, already valid against the
// operation's input schema. A returned error becomes an error result carrying its message.
type Handler func(ctx context.Context, args json.RawMessage) (Result, error)

// Annotations are MCP tool hints. Each is a pointer because "not said" differs from "false":
// an operation that says nothing may be called with any intent, ReadOnly=false marks a writer.
type Annotations struct {
	// Title is a short human-readable name.
	Title string
	// ReadOnly: the operation changes nothing.
	ReadOnly *bool
	// Destructive: the operation may delete or overwrite data.
	Destructive *bool
	// Idempotent: repeating a call with the same arguments has no further effect.
	Idempotent *bool
	// OpenWorld: the operation reaches outside the machine (network, external services).
	OpenWorld *bool
}

// Bool returns a pointer to b, for filling Annotations.
func Bool(b bool) *bool { return &b }
