package mcpbridge

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/domain/tool"
)

func TestEffectiveAnnotations(t *testing.T) {
	yes, no := tool.Bool(true), tool.Bool(false)
	tests := []struct {
		name     string
		server   *mcp.ToolAnnotations
		override tool.Annotations
		want     tool.Variant
		title    string
	}{
		{"unannotated is destructive", nil, tool.Annotations{}, tool.VariantDestructive, ""},
		{"read-only server", &mcp.ToolAnnotations{ReadOnlyHint: true}, tool.Annotations{}, tool.VariantRead, ""},
		{"not read-only, destructive unsaid: MCP default destructive", &mcp.ToolAnnotations{}, tool.Annotations{}, tool.VariantDestructive, ""},
		{"not destructive: write", &mcp.ToolAnnotations{DestructiveHint: no}, tool.Annotations{}, tool.VariantWrite, ""},
		{"override read-only wins over unannotated", nil, tool.Annotations{ReadOnlyHint: yes}, tool.VariantRead, ""},
		{"override destructive wins over server read-only", &mcp.ToolAnnotations{ReadOnlyHint: true, Title: "T"}, tool.Annotations{ReadOnlyHint: no, DestructiveHint: yes}, tool.VariantDestructive, "T"},
		{"override read-only but destructive kept when said", nil, tool.Annotations{ReadOnlyHint: yes, DestructiveHint: yes}, tool.VariantDestructive, ""},
		{"override write", &mcp.ToolAnnotations{DestructiveHint: yes}, tool.Annotations{DestructiveHint: no, Title: "U", IdempotentHint: yes, OpenWorldHint: no}, tool.VariantWrite, "U"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := AnnotationsWithOrigin(tt.server, tt.override)
			if got := tool.CallWith(a); got != tt.want || a.Title != tt.title || a.ReadOnlyHint == nil || a.DestructiveHint == nil {
				t.Errorf("annotations %+v: variant %s, want %s (title %q)", a, got, tt.want, tt.title)
			}
			if tt.override.IdempotentHint != nil && (a.IdempotentHint != tt.override.IdempotentHint || a.OpenWorldHint != tt.override.OpenWorldHint) {
				t.Errorf("hints not overridden: %+v", a)
			}
		})
	}
}

func TestFromCallResult(t *testing.T) {
	r := FromCallResult(&mcp.CallToolResult{IsError: true, Content: []mcp.Content{
		&mcp.TextContent{Text: "a"}, &mcp.ImageContent{MIMEType: "image/png", Data: []byte{1, 2, 3, 4}},
	}})
	if !r.IsError || len(r.Content) != 2 || r.Content[0].Text != "a" || r.Content[0].Raw != nil {
		t.Fatalf("result = %+v", r)
	}
	if got := r.Content[1]; got.Type != "image" || got.Text != "[image image/png, 4 bytes]" || string(got.Raw) != `{"type":"image","mimeType":"image/png","data":"AQIDBA=="}` {
		t.Errorf("image block = %+v (raw %s)", got, got.Raw)
	}
	if r.JoinedText() != "a\n[image image/png, 4 bytes]" {
		t.Errorf("joined text carries the payload: %q", r.JoinedText())
	}
	r = FromCallResult(&mcp.CallToolResult{StructuredContent: map[string]int{"n": 1}, Meta: mcp.Meta{"k": "v"}})
	if string(r.Structured) != `{"n":1}` || string(r.Meta) != `{"k":"v"}` || len(r.Content) != 0 || r.ModelText() != `{"n":1}` {
		t.Errorf("structured = %+v", r)
	}
	r = FromCallResult(&mcp.CallToolResult{Meta: mcp.Meta{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "up"}, "k": 1}})
	if string(r.Meta) != `{"k":1}` {
		t.Errorf("meta with the protocol's own key = %s", r.Meta)
	}
	if r = FromCallResult(&mcp.CallToolResult{Meta: mcp.Meta{"io.modelcontextprotocol/serverInfo": 1}}); r.Meta != nil {
		t.Errorf("meta of only the protocol's keys = %s", r.Meta)
	}
	if r = FromCallResult(&mcp.CallToolResult{}); r.Structured != nil || r.Meta != nil || r.Content == nil {
		t.Errorf("empty result = %+v", r)
	}
}

func TestFromCallResultEachBlock(t *testing.T) {
	size := int64(9)
	for _, c := range []struct {
		block    mcp.Content
		typ      string
		text     string
		wantsRaw bool
	}{
		{&mcp.TextContent{Text: "plain"}, "text", "plain", false},
		{&mcp.TextContent{Text: "noted", Annotations: &mcp.Annotations{Priority: 1}}, "text", "noted", true},
		{&mcp.TextContent{Text: "meta", Meta: mcp.Meta{"m": 1}}, "text", "meta", true},
		{&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF1")}, "audio", "[audio audio/wav, 5 bytes]", true},
		{&mcp.ResourceLink{URI: "file:///a.txt", Name: "a", MIMEType: "text/plain", Size: &size}, "resource_link", "[resource_link file:///a.txt text/plain, 9 bytes]", true},
		{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "mem://x", MIMEType: "text/plain", Text: "hello"}}, "resource", "[resource mem://x text/plain, 5 bytes]", true},
		{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "mem://b", Blob: []byte{0, 1, 2}}}, "resource", "[resource mem://b, 3 bytes]", true},
	} {
		t.Run(c.typ+"/"+c.text, func(t *testing.T) {
			r := FromCallResult(&mcp.CallToolResult{Content: []mcp.Content{c.block}})
			got := r.Content[0]
			want, _ := json.Marshal(c.block)
			if got.Type != c.typ || got.Text != c.text || (got.Raw != nil) != c.wantsRaw {
				t.Fatalf("block = %+v", got)
			}
			if c.wantsRaw && string(got.Raw) != string(want) {
				t.Errorf("raw = %s, want %s", got.Raw, want)
			}
		})
	}
}

func TestAnnotationsOrigin(t *testing.T) {
	for _, tt := range []struct {
		server   *mcp.ToolAnnotations
		override tool.Annotations
		want     string
	}{
		{nil, tool.Annotations{}, "default"},
		{&mcp.ToolAnnotations{}, tool.Annotations{}, "server"},
		{&mcp.ToolAnnotations{}, tool.Annotations{Title: "x"}, "override"},
	} {
		if _, from := AnnotationsWithOrigin(tt.server, tt.override); from != tt.want {
			t.Errorf("origin = %s, want %s", from, tt.want)
		}
	}
}
