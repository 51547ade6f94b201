package main

import (
	"context"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// weatherSchema is the outputSchema of the weather tools: a temperature is required, a number.
var weatherSchema = map[string]any{
	"type":       "object",
	"properties": map[string]any{"temperature": map[string]any{"type": "number"}, "conditions": map[string]any{"type": "string"}},
	"required":   []any{"temperature"},
}

// addSchemaTools, with FIXTURE_SCHEMA set, adds tools that declare an outputSchema and every
// optional field of a definition: "weather" answers structuredContent that conforms to it,
// "bad-weather" structuredContent that does not (a string temperature) and "no-weather" none.
// The SDK's low-level AddTool checks nothing, as a careless server would not.
func addSchemaTools(s *mcp.Server) {
	if os.Getenv("FIXTURE_SCHEMA") == "" {
		return
	}
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, Title: "Annotated weather"}
	for name, structured := range map[string]any{
		"weather":     map[string]any{"temperature": 21.5, "conditions": "clear"},
		"bad-weather": map[string]any{"temperature": "hot"},
		"no-weather":  nil,
	} {
		s.AddTool(&mcp.Tool{Name: name, Title: "Weather (" + name + ")", Description: "Returns the weather as structuredContent.", Annotations: ro,
			InputSchema: map[string]any{"type": "object"}, OutputSchema: weatherSchema,
			Icons: []mcp.Icon{{Source: "data:image/png;base64,iVBORw0KGgo=", MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: "dark"}},
			Meta:  mcp.Meta{"fixture/tool": map[string]any{"n": 1, "list": []any{"a", true}}}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the weather"}}, StructuredContent: structured}, nil
			})
	}
}
