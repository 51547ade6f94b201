package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Annotations are the MCP behaviour hints of a tool. Clients use them to
// decide whether to ask the user before a call (codex, for one, refuses
// read-only tools that do not say so), so set every hint you know. A nil hint
// is left out and means the MCP default.
type Annotations struct {
	Title           string
	ReadOnlyHint    *bool
	DestructiveHint *bool
	IdempotentHint  *bool
	OpenWorldHint   *bool
}

// Tool describes one tool as listed to the client.
type Tool struct {
	// Name is 1 to 128 characters of A-Z, a-z, 0-9, '_', '-' and '.'.
	Name        string
	Title       string
	Description string
	// InputSchema is a JSON Schema object whose "type" is "object"; use
	// {"type":"object"} for a tool without arguments. The server does not
	// validate arguments against it: that is the handler's job.
	InputSchema json.RawMessage
	Annotations *Annotations
	// OutputSchema, when set, is the JSON Schema object of the tool's
	// structuredContent, listed as given; the server does not check results
	// against it. A proxy passes on what another server declared.
	OutputSchema json.RawMessage
	// Icons is the tool's MCP icons array and Meta its definition's _meta
	// object, both as JSON, listed as given; nil lists none.
	Icons json.RawMessage
	Meta  json.RawMessage
}

// Content is one item of a tool result. Without Raw only text content is
// supported: Type may be "text" or empty. With Raw (see rich.go) the item is
// any MCP content block, sent as given.
type Content struct {
	Type string
	Text string
	// Raw is a complete MCP content block as JSON (image, audio,
	// resource_link, resource, or text with annotations or _meta), sent to
	// the client as it is; Type and Text are then ignored. A proxy uses it to
	// pass on what another server returned.
	Raw json.RawMessage
}

// Result is what a tool call returns to the client. A tool that fails in a way
// the model should see and react to (bad arguments, file not found, command
// failed) returns a Result with IsError set, not a Go error.
type Result struct {
	Content []Content
	IsError bool
	// StructuredContent and Meta, when set, are sent as the result's
	// structuredContent and _meta, unchanged (JSON; Meta must be an object).
	StructuredContent json.RawMessage
	Meta              json.RawMessage
}

// Handler runs one tool call. arguments is the raw JSON object sent by the
// client ({} when it sent none), not yet validated. ctx is cancelled when the
// client cancels the call or the session ends; a handler must return soon
// after. A non-nil error becomes a JSON-RPC error response with code -32603
// (or the code of a wrapped *jsonrpc.Error), which clients treat as a protocol
// failure rather than a tool failure; prefer Result.IsError for the latter.
type Handler func(ctx context.Context, arguments json.RawMessage) (*Result, error)

const maxToolNameLen = 128

// validateTool checks what the SDK would only log or panic about, so that
// AddTool can return an error instead.
func validateTool(t Tool) error {
	if t.Name == "" {
		return errors.New("tool name is empty")
	}
	if len(t.Name) > maxToolNameLen {
		return fmt.Errorf("tool name %q is %d bytes long; the limit is %d", t.Name, len(t.Name), maxToolNameLen)
	}
	if i := strings.IndexFunc(t.Name, func(r rune) bool { return !validNameRune(r) }); i >= 0 {
		return fmt.Errorf("tool name %q contains %q; use only A-Z, a-z, 0-9, '_', '-' and '.'", t.Name, []rune(t.Name[i:])[0])
	}
	if err := validateExtras(t); err != nil {
		return err
	}
	if len(bytes.TrimSpace(t.InputSchema)) == 0 {
		return fmt.Errorf(`tool %q has no input schema; use {"type":"object"} for a tool without arguments`, t.Name)
	}
	var schema map[string]json.RawMessage
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil || schema == nil {
		return fmt.Errorf("tool %q: input schema must be a JSON object: %s", t.Name, schemaProblem(err))
	}
	var typ string
	if raw, ok := schema["type"]; !ok || json.Unmarshal(raw, &typ) != nil || typ != "object" {
		return fmt.Errorf(`tool %q: input schema must have "type": "object", got %s`, t.Name, orMissing(schema["type"]))
	}
	return nil
}

func validNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.'
}

func schemaProblem(err error) string {
	if err != nil {
		return err.Error()
	}
	return "got null"
}

func orMissing(raw json.RawMessage) string {
	if raw == nil {
		return "no type"
	}
	return string(raw)
}

// validateExtras checks the optional parts of a definition: an output schema
// that is a JSON object, icons that are an array of icons, _meta an object.
func validateExtras(t Tool) error {
	if len(t.OutputSchema) > 0 {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(t.OutputSchema, &m); err != nil || m == nil {
			return fmt.Errorf("tool %q: output schema must be a JSON object: %s", t.Name, schemaProblem(err))
		}
	}
	if len(t.Icons) > 0 {
		var icons []mcp.Icon
		if err := json.Unmarshal(t.Icons, &icons); err != nil {
			return fmt.Errorf("tool %q: icons must be a JSON array of icons: %v", t.Name, err)
		}
	}
	if len(t.Meta) > 0 {
		var m map[string]any
		if err := json.Unmarshal(t.Meta, &m); err != nil || m == nil {
			return fmt.Errorf("tool %q: _meta must be a JSON object: %s", t.Name, schemaProblem(err))
		}
	}
	return nil
}

// sdkTool converts t to the SDK's form. The schemas are copied so later changes
// to the caller's slices cannot alter what is listed; validateTool has checked
// the icons and _meta it decodes.
func sdkTool(t Tool) *mcp.Tool {
	out := &mcp.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: json.RawMessage(bytes.Clone(t.InputSchema)),
		Annotations: sdkAnnotations(t.Annotations),
	}
	if len(t.OutputSchema) > 0 {
		out.OutputSchema = json.RawMessage(bytes.Clone(t.OutputSchema))
	}
	if len(t.Icons) > 0 {
		_ = json.Unmarshal(t.Icons, &out.Icons)
	}
	if len(t.Meta) > 0 {
		_ = json.Unmarshal(t.Meta, &out.Meta)
	}
	return out
}

// sdkAnnotations maps the hints. The SDK always emits readOnlyHint and
// idempotentHint (plain bools there), so a tool without a title or any hint
// gets no annotations object at all rather than two invented false hints.
func sdkAnnotations(a *Annotations) *mcp.ToolAnnotations {
	if a == nil || (a.Title == "" && a.ReadOnlyHint == nil && a.DestructiveHint == nil &&
		a.IdempotentHint == nil && a.OpenWorldHint == nil) {
		return nil
	}
	return &mcp.ToolAnnotations{
		Title:           a.Title,
		ReadOnlyHint:    a.ReadOnlyHint != nil && *a.ReadOnlyHint,
		IdempotentHint:  a.IdempotentHint != nil && *a.IdempotentHint,
		DestructiveHint: cloneBool(a.DestructiveHint),
		OpenWorldHint:   cloneBool(a.OpenWorldHint),
	}
}

func cloneBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}

// sdkResult converts a handler's result. A nil result is an empty success.
func sdkResult(name string, r *Result) (*mcp.CallToolResult, error) {
	out := &mcp.CallToolResult{Content: []mcp.Content{}}
	if r == nil {
		return out, nil
	}
	out.IsError = r.IsError
	if r.rich() {
		return richResult(name, r)
	}
	for _, c := range r.Content {
		if c.Type != "" && c.Type != "text" {
			return nil, &jsonrpc.Error{
				Code:    jsonrpc.CodeInternalError,
				Message: fmt.Sprintf("tool %q returned content of type %q; only text content is supported", name, c.Type),
			}
		}
		out.Content = append(out.Content, &mcp.TextContent{Text: c.Text})
	}
	return out, nil
}

// rpcError keeps the code of a wrapped *jsonrpc.Error and gives any other
// error the code -32603 Internal error.
func rpcError(err error) error {
	var wire *jsonrpc.Error
	if errors.As(err, &wire) && wire.Code != 0 {
		return err
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}
