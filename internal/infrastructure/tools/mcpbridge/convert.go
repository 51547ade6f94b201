package mcpbridge

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// AnnotationsWithOrigin is a bridged tool's annotations, and where they came from
// ("override", "server" or "default"): the user's override field by field, else the server's,
// else the MCP defaults (not read-only, destructive), so an unannotated tool is destructive and
// never silently "read". A tool made read-only by the override is not destructive unless the
// override says so.
func AnnotationsWithOrigin(server *mcp.ToolAnnotations, override tool.Annotations) (tool.Annotations, string) {
	from := "default"
	switch {
	case !override.IsZero():
		from = "override"
	case server != nil:
		from = "server"
	}
	a := tool.Annotations{ReadOnlyHint: tool.Bool(false)}
	if server != nil {
		a.Title = server.Title
		a.ReadOnlyHint = tool.Bool(server.ReadOnlyHint)
		a.DestructiveHint = server.DestructiveHint
		a.IdempotentHint = tool.Bool(server.IdempotentHint)
		a.OpenWorldHint = server.OpenWorldHint
	}
	if override.Title != "" {
		a.Title = override.Title
	}
	if override.ReadOnlyHint != nil {
		a.ReadOnlyHint = override.ReadOnlyHint
		if *override.ReadOnlyHint && override.DestructiveHint == nil {
			a.DestructiveHint = tool.Bool(false)
		}
	}
	if override.DestructiveHint != nil {
		a.DestructiveHint = override.DestructiveHint
	}
	if override.IdempotentHint != nil {
		a.IdempotentHint = override.IdempotentHint
	}
	if override.OpenWorldHint != nil {
		a.OpenWorldHint = override.OpenWorldHint
	}
	if a.DestructiveHint == nil {
		a.DestructiveHint = tool.Bool(!a.ReadOnly())
	}
	return a, from
}

// FromCallResult turns an MCP tool result into awf's without losing anything: a plain text
// block stays text; every other block (image, audio, resource link, embedded resource, and
// text carrying annotations or _meta) keeps its MCP JSON in Raw, with a payload-free summary
// as its Text; structuredContent and _meta are kept as JSON. An MCP client of mcp-serve gets
// them all back as the server sent them (pkg/mcpserver), except the protocol's own _meta keys
// (IsHopMeta); the model API path reads ModelText. It is the reference an Accelerator's own
// decoding is tested against.
func FromCallResult(r *mcp.CallToolResult) tool.Result {
	out := tool.Result{IsError: r.IsError, Content: make([]tool.Content, 0, len(r.Content))}
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok && t.Meta == nil && t.Annotations == nil {
			out.Content = append(out.Content, tool.Content{Type: "text", Text: t.Text})
			continue
		}
		raw, err := json.Marshal(c)
		if err != nil {
			out.Content = append(out.Content, tool.Content{Type: "text", Text: fmt.Sprintf("[a content block awf could not encode: %v]", err)})
			continue
		}
		block := tool.Content{Type: contentType(raw), Raw: raw}
		if t, ok := c.(*mcp.TextContent); ok {
			block.Text = t.Text
		} else {
			block.Text = tool.SummaryText(block.Summary())
		}
		out.Content = append(out.Content, block)
	}
	if r.StructuredContent != nil {
		out.Structured, _ = json.Marshal(r.StructuredContent)
	}
	if meta := ownMeta(r.Meta); meta != nil {
		out.Meta, _ = json.Marshal(meta)
	}
	return out
}

// hopMeta prefixes the _meta keys the protocol reserves for the hop itself (the answering
// server's serverInfo under the 2026-07-28 protocol): they describe the bridged server to awf,
// not the result to the agent, whose peer is awf, so they stay behind.
const hopMeta = "io.modelcontextprotocol/"

// IsHopMeta reports whether a result's _meta key is one the protocol reserves for the hop
// (hopMeta): such keys stay behind when a result crosses awf.
func IsHopMeta(key string) bool { return strings.HasPrefix(key, hopMeta) }

// ownMeta is the result's _meta without the hop's keys; nil when nothing else is left.
func ownMeta(m mcp.Meta) mcp.Meta {
	var out mcp.Meta
	for k, v := range m {
		if IsHopMeta(k) {
			continue
		}
		if out == nil {
			out = mcp.Meta{}
		}
		out[k] = v
	}
	return out
}

// contentType reads the "type" of a marshalled block.
func contentType(raw []byte) string {
	var w struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(raw, &w)
	return w.Type
}
