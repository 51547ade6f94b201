package plugins

import (
	"strings"
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
			a := effectiveAnnotations(tt.server, tt.override)
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
	r := fromCallResult(&mcp.CallToolResult{IsError: true, Content: []mcp.Content{
		&mcp.TextContent{Text: "a"}, &mcp.ImageContent{MIMEType: "image/png", Data: []byte{1}},
	}})
	if !r.IsError || len(r.Content) != 2 || r.Content[0].Text != "a" || !strings.Contains(r.Content[1].Text, `"mimeType":"image/png"`) {
		t.Errorf("result = %+v", r)
	}
	r = fromCallResult(&mcp.CallToolResult{StructuredContent: map[string]int{"n": 1}})
	if r.JoinedText() != `{"n":1}` {
		t.Errorf("structured = %+v", r)
	}
}

func TestExpandPairs(t *testing.T) {
	out, err := expandPairs(Spec{Name: "p"}, "header", []string{"A=Bearer ${T}", "B=x"}, []string{"T=tok"}, "f")
	if err != nil || strings.Join(out, "|") != "A=Bearer tok|B=x" {
		t.Errorf("%v %v", out, err)
	}
	if _, err := expandPairs(Spec{Name: "p"}, "header", []string{"A=${NOPE}"}, nil, "f"); err == nil || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("err = %v", err)
	}
}

func TestPinDiffAndDrift(t *testing.T) {
	a := newPin("t", "d", map[string]any{"type": "object"}, nil, nil)
	b := newPin("t", "d2", map[string]any{"type": "object"}, nil, map[string]bool{"readOnlyHint": true})
	if a.Fingerprint == b.Fingerprint || a.Diff(b) != "description, annotations changed" || a.Diff(a) != "name" {
		t.Errorf("diff = %q", a.Diff(b))
	}
	locked := Lock{Plugins: map[string]map[string]ToolPin{"p": {"t": a, "gone": a}}}
	now := Lock{Plugins: map[string]map[string]ToolPin{"p": {"t": b, "new": a}}}
	got := strings.Join(Drift(locked, now), "; ")
	if got != "plugin p: tool gone is gone; plugin p: tool new is new; plugin p: tool t: description, annotations changed" {
		t.Errorf("drift = %s", got)
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
		if _, from := annotationsWithOrigin(tt.server, tt.override); from != tt.want {
			t.Errorf("origin = %s, want %s", from, tt.want)
		}
	}
}
