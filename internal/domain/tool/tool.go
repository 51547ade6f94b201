// Package tool is awf's model of a tool an agent can call: its definition with MCP annotations,
// where it comes from, and what a call returns. It is the vocabulary shared by the router, the
// built-ins, the plugin adapter and every agent path.
package tool

import (
	"encoding/json"
	"strings"
)

// Source says who serves a tool: awf itself or a named plugin.
type Source string

// BuiltinSource is the source of the six core tools.
const BuiltinSource Source = "builtin"

// PluginSource returns the source of a plugin's tools, "plugin:<name>".
func PluginSource(name string) Source { return Source("plugin:" + name) }

// MCPSource is the source of the tools of an MCP server bridged as a `type: mcp` plugin.
func MCPSource(name string) Source { return Source("mcp:" + name) }

// IsMCP reports whether s is a bridged MCP server's source (mcp:<name>), whose tool
// definitions are passed on as the server wrote them.
func (s Source) IsMCP() bool { return strings.HasPrefix(string(s), "mcp:") }

// Plugin returns the plugin name of a plugin or bridged MCP source, or "" for builtins.
func (s Source) Plugin() string {
	if name, ok := strings.CutPrefix(string(s), "plugin:"); ok {
		return name
	}
	if name, ok := strings.CutPrefix(string(s), "mcp:"); ok {
		return name
	}
	return ""
}

// Annotations are the MCP tool hints. Each hint is a pointer because "not said" and "false" mean
// different things to the intent rule: a tool that says nothing is allowed everywhere, a tool
// that says readOnlyHint=false is a writer.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Bool returns a pointer to b, for filling Annotations literals.
func Bool(b bool) *bool { return &b }

// IsZero reports whether no hint and no title is set.
func (a Annotations) IsZero() bool {
	return a.Title == "" && a.ReadOnlyHint == nil && a.DestructiveHint == nil && a.IdempotentHint == nil && a.OpenWorldHint == nil
}

// HasHints reports whether any behavioural hint is set (the title does not count).
func (a Annotations) HasHints() bool {
	return a.ReadOnlyHint != nil || a.DestructiveHint != nil || a.IdempotentHint != nil || a.OpenWorldHint != nil
}

// ReadOnly reports readOnlyHint == true.
func (a Annotations) ReadOnly() bool { return a.ReadOnlyHint != nil && *a.ReadOnlyHint }

// Destructive reports destructiveHint == true.
func (a Annotations) Destructive() bool { return a.DestructiveHint != nil && *a.DestructiveHint }

// Definition describes one tool as it is listed to an agent.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations Annotations     `json:"annotations"`
	Source      Source          `json:"source"`
	// Title is the tool's display name as MCP lists it beside the annotations' title. A bridged
	// MCP server's tool keeps its own, and so do OutputSchema (the JSON Schema of its
	// structuredContent), Icons (MCP's icons array) and Meta (its definition's _meta), as JSON
	// and unchanged, so an agent sees the definition its server wrote; nil when it sent none.
	Title        string          `json:"title,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Icons        json.RawMessage `json:"icons,omitempty"`
	Meta         json.RawMessage `json:"_meta,omitempty"`
	// FansOut marks a tool whose call spreads over every CPU it is given (Grep and Glob walk a
	// tree with a worker each), so that a server pacing its CPUs between calls gives this one
	// all of them at once. It is the provider's word, whatever name the agent calls the tool by
	// (its own, or call_tool_* in split mode); it is never listed to the agent.
	FansOut bool `json:"-"`
}

// Content is one block of a tool result. Text is the only kind awf's own tools produce; JSON
// results from plugins are carried as text holding the JSON. A bridged MCP server may send any
// MCP block (image, audio, resource_link, resource, or text with annotations or _meta): such a
// block keeps its MCP JSON in Raw, which is what an MCP client receives, unchanged, while Text
// holds a short description without the payload (see SummaryText) for logs and records.
type Content struct {
	Type string `json:"type"`
	Text string `json:"text"`
	// Raw is the block's MCP JSON exactly as the server sent it; nil for a plain text block.
	Raw json.RawMessage `json:"-"`
}

// Result is what a call returns to the agent. IsError marks a tool-level failure the model
// should read and react to; it is not a protocol error.
type Result struct {
	Content []Content `json:"content"`
	IsError bool      `json:"isError,omitempty"`
	// Structured is the structuredContent of a bridged MCP server's result, as its JSON; Meta
	// is the result's _meta. Both pass to an MCP client unchanged; nil when the server sent none.
	Structured json.RawMessage `json:"-"`
	Meta       json.RawMessage `json:"-"`
	// Confinement is set by a tool that ran sandboxed (Bash); it is recorded, never sent.
	Confinement *Confinement `json:"-"`
}

// Text returns a successful result holding one text block.
func Text(s string) Result { return Result{Content: []Content{{Type: "text", Text: s}}} }

// Error returns an error result holding one text block; the message should say what to do.
func Error(msg string) Result {
	return Result{Content: []Content{{Type: "text", Text: msg}}, IsError: true}
}

// JoinedText concatenates every text block, for logs, records and tests.
func (r Result) JoinedText() string {
	var b strings.Builder
	for i, c := range r.Content {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(c.Text)
	}
	return b.String()
}
