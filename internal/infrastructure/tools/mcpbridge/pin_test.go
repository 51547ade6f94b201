package mcpbridge

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/plugins/pluginlock"
)

// Every field of a definition moves the pin; a tool without icons or _meta pins as locks
// written before they were covered did (NewPin alone).
func TestPinToolCoversTheWholeDefinition(t *testing.T) {
	base := func() *mcp.Tool {
		return &mcp.Tool{Name: "t", Title: "T", Description: "d", InputSchema: map[string]any{"type": "object"},
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}
	}
	b := base()
	if got, old := pinTool(b), pluginlock.NewPin("t", []string{"T", "d"}, b.InputSchema, b.OutputSchema, b.Annotations); got != old {
		t.Fatalf("a plain tool's pin changed: %+v, older locks hold %+v", got, old)
	}
	seen := map[string]string{pinTool(b).Fingerprint: "base"}
	for what, change := range map[string]func(*mcp.Tool){
		"title":        func(t *mcp.Tool) { t.Title = "U" },
		"description":  func(t *mcp.Tool) { t.Description = "e" },
		"inputSchema":  func(t *mcp.Tool) { t.InputSchema = map[string]any{"type": "object", "required": []string{"x"}} },
		"outputSchema": func(t *mcp.Tool) { t.OutputSchema = map[string]any{"type": "object"} },
		"annotations":  func(t *mcp.Tool) { t.Annotations = &mcp.ToolAnnotations{} },
		"icons":        func(t *mcp.Tool) { t.Icons = []mcp.Icon{{Source: "https://example.com/i.png"}} },
		"_meta":        func(t *mcp.Tool) { t.Meta = mcp.Meta{"k": 1} },
		"_meta value":  func(t *mcp.Tool) { t.Meta = mcp.Meta{"k": 2} },
	} {
		tl := base()
		change(tl)
		fp := pinTool(tl).Fingerprint
		if prev, dup := seen[fp]; dup {
			t.Errorf("changing %s pins as %s did", what, prev)
		}
		seen[fp] = what
	}
}

// A tool whose _meta changes mid-step (announced by notifications/tools/list_changed) is drift:
// its next call is refused with USER.MCP_PROXY.TOOL_CHANGED naming icons or _meta.
func TestMidStepMetaChangeIsDrift(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "meta-fixture", Version: "1"}, nil)
	probe := func(meta mcp.Meta) {
		mcp.AddTool(srv, &mcp.Tool{Name: "probe", Description: "Answers ok.", Meta: meta, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
			})
	}
	probe(mcp.Meta{"vendor/version": "1"})
	mcp.AddTool(srv, &mcp.Tool{Name: "mutate", Description: "Changes probe's _meta only."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			probe(mcp.Meta{"vendor/version": "2"})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "mutated"}}}, nil, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	s := New(Config{Name: "fix", What: hs.URL, StartupTimeout: 10 * time.Second, CallTimeout: 10 * time.Second, MaxCrashes: 1,
		Launch: func() (Launch, error) { return Launch{URL: hs.URL}, nil }})
	defer s.Stop()
	ctx := t.Context()
	if _, err := s.Execute(ctx, "probe", json.RawMessage(`{}`)); err != nil {
		t.Fatalf("probe before the change: %v", err)
	}
	if _, err := s.Execute(ctx, "mutate", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	var err error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		if _, err = s.Execute(ctx, "probe", json.RawMessage(`{}`)); err != nil {
			break
		}
		time.Sleep(20 * time.Millisecond) // the go-sdk server debounces list_changed
	}
	if fault.CodeOf(err) != fault.UserMCPProxyToolChanged || !strings.Contains(err.Error(), "icons or _meta changed") {
		t.Fatalf("probe after its _meta changed: %v", err)
	}
}
