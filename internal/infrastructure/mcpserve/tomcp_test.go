package mcpserve

import (
	"encoding/json"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// A bridged MCP server's tool is listed with its own title, outputSchema, icons and _meta (no
// title of awf's making when it has none); awf's own tools are titled by their annotations.
func TestToMCPKeepsABridgedDefinition(t *testing.T) {
	ann := tool.Annotations{Title: "Annotated", ReadOnlyHint: tool.Bool(true)}
	for _, tc := range []struct {
		name      string
		def       tool.Definition
		wantTitle string
	}{
		{"bridged with a title", tool.Definition{Title: "Own", Source: tool.MCPSource("x"), Annotations: ann}, "Own"},
		{"bridged without a title", tool.Definition{Source: tool.MCPSource("x"), Annotations: ann}, ""},
		{"builtin", tool.Definition{Source: tool.BuiltinSource, Annotations: ann}, "Annotated"},
		{"gRPC plugin", tool.Definition{Source: tool.PluginSource("p"), Annotations: ann}, "Annotated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.def.Name, tc.def.InputSchema = "t", json.RawMessage(`{"type":"object"}`)
			tc.def.OutputSchema, tc.def.Icons, tc.def.Meta = json.RawMessage(`{"type":"object"}`), json.RawMessage(`[{"src":"x"}]`), json.RawMessage(`{"k":1}`)
			got := toMCP(tc.def)
			if got.Title != tc.wantTitle || string(got.OutputSchema) != `{"type":"object"}` || string(got.Icons) != `[{"src":"x"}]` || string(got.Meta) != `{"k":1}` {
				t.Errorf("toMCP = %+v", got)
			}
			if got.Annotations == nil || got.Annotations.Title != "Annotated" {
				t.Errorf("annotations = %+v", got.Annotations)
			}
		})
	}
}
