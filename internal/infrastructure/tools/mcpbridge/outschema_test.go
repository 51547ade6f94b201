package mcpbridge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// A tool that declares an outputSchema gets its successful results checked: conforming
// structuredContent passes unchanged; missing or non-conforming structuredContent becomes an
// error result that says so, without the structuredContent and with the server's blocks kept;
// an error result passes as it is; a schema awf cannot compile refuses rather than passes.
func TestOutputSchemaCheck(t *testing.T) {
	const weather = `{"type":"object","properties":{"temperature":{"type":"number"},"conditions":{"type":"string"}},"required":["temperature"]}`
	text := []tool.Content{{Type: "text", Text: `{"temperature":"hot"}`}}
	for _, tc := range []struct {
		name, schema, structured string
		isError                  bool
		wantError                bool
		wantText                 string // in the first block of a refused result
	}{
		{name: "conforms", schema: weather, structured: `{"temperature":21.5,"conditions":"clear"}`},
		{name: "draft-07 schema", schema: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}}}`, structured: `{"n":3}`},
		{name: "wrong type", schema: weather, structured: `{"temperature":"hot"}`, wantError: true, wantText: "does not match the output schema"},
		{name: "required missing", schema: weather, structured: `{"conditions":"clear"}`, wantError: true, wantText: "temperature"},
		{name: "no structuredContent", schema: weather, wantError: true, wantText: "it has no structuredContent"},
		{name: "error result passes", schema: weather, isError: true, wantError: true},
		{name: "schema awf cannot use", schema: `{"type":"object","$ref":"https://example.com/remote.json"}`, structured: `{}`, wantError: true, wantText: "awf cannot use that schema"},
		{name: "schema not JSON Schema", schema: `{"type":7}`, structured: `{}`, wantError: true, wantText: "awf cannot use that schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tool.Result{Content: text, IsError: tc.isError, Meta: json.RawMessage(`{"k":"v"}`)}
			if tc.structured != "" {
				in.Structured = json.RawMessage(tc.structured)
			}
			got := compileOutput(json.RawMessage(tc.schema)).check("wx", "forecast", in)
			if got.IsError != tc.wantError {
				t.Fatalf("isError = %v, want %v: %+v", got.IsError, tc.wantError, got)
			}
			if string(got.Meta) != `{"k":"v"}` {
				t.Errorf("_meta lost: %s", got.Meta)
			}
			if !tc.wantError || tc.isError {
				if string(got.Structured) != tc.structured || len(got.Content) != 1 {
					t.Errorf("result changed: %+v", got)
				}
				return
			}
			if got.Structured != nil || len(got.Content) != 2 || got.Content[1].Text != text[0].Text {
				t.Errorf("refused result keeps structuredContent or loses the server's blocks: %+v", got)
			}
			if msg := got.Content[0].Text; !strings.Contains(msg, tc.wantText) || !strings.Contains(msg, `MCP plugin "wx"`) || !strings.Contains(msg, "forecast") {
				t.Errorf("message = %q, want it to name the plugin, the tool and %q", msg, tc.wantText)
			}
		})
	}
}

// The validator's text is bounded: a server's long value does not flood the agent's context.
func TestOutputSchemaProblemIsClipped(t *testing.T) {
	o := compileOutput(json.RawMessage(`{"type":"object","properties":{"s":{"type":"string","maxLength":1}}}`))
	got := o.check("p", "t", tool.Result{Structured: json.RawMessage(`{"s":"` + strings.Repeat("é", 5000) + `"}`)})
	if !got.IsError || len(got.Content[0].Text) > maxSchemaProblem+400 {
		t.Errorf("message of %d bytes: %.200q", len(got.Content[0].Text), got.Content[0].Text)
	}
}
