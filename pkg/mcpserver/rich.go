package mcpserver

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rich reports whether r carries anything beyond plain text blocks; plain text
// results keep the direct conversion, which allocates nothing extra.
func (r *Result) rich() bool {
	if len(r.StructuredContent) > 0 || len(r.Meta) > 0 {
		return true
	}
	for i := range r.Content {
		if len(r.Content[i].Raw) > 0 {
			return true
		}
	}
	return false
}

// wireResult is a tool result in its MCP JSON form, assembled from the parts a
// handler gave, so the SDK decodes every content block exactly as it would
// from a server it called.
type wireResult struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent json.RawMessage   `json:"structuredContent,omitempty"`
	Meta              json.RawMessage   `json:"_meta,omitempty"`
	IsError           bool              `json:"isError,omitempty"`
}

// richResult converts a result holding raw blocks, structuredContent or _meta.
// The structuredContent is sent byte for byte as given. A block the SDK cannot
// decode is a JSON-RPC internal error naming the tool and the block.
func richResult(name string, r *Result) (*mcp.CallToolResult, error) {
	w := wireResult{Content: make([]json.RawMessage, 0, len(r.Content)), Meta: r.Meta, IsError: r.IsError}
	for _, c := range r.Content {
		if len(c.Raw) > 0 {
			w.Content = append(w.Content, c.Raw)
			continue
		}
		if c.Type != "" && c.Type != "text" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
				"tool %q returned content of type %q without its raw MCP form; only text content may omit Raw", name, c.Type)}
		}
		b, _ := json.Marshal(&mcp.TextContent{Text: c.Text})
		w.Content = append(w.Content, b)
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("tool %q returned a result that is not valid JSON: %v", name, err)}
	}
	out := &mcp.CallToolResult{}
	if err := json.Unmarshal(b, out); err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("tool %q returned content the MCP SDK cannot send: %v", name, err)}
	}
	if len(r.StructuredContent) > 0 {
		out.StructuredContent = r.StructuredContent // as given, not re-encoded through a map
	}
	return out, nil
}
