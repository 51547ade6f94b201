package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func noop(context.Context, json.RawMessage) (*Result, error) {
	return &Result{Content: []Content{{Type: "text", Text: "ok"}}}, nil
}

// toolNames lists the tools of a raw tools/list answer, in order.
func toolNames(t *testing.T, resp map[string]any) []string {
	t.Helper()
	res, ok := resp["result"].(map[string]any)
	if !ok {
		t.Fatalf("tools/list answer without a result: %v", resp)
	}
	var out []string
	for _, tl := range res["tools"].([]any) {
		out = append(out, tl.(map[string]any)["name"].(string))
	}
	return out
}

// Tools added before the session are listed sorted and called; one added while the session
// runs, after the client listed the tools, is announced with notifications/tools/list_changed.
func TestToolsAddedBeforeAndDuringTheSession(t *testing.T) {
	srv := newSrv(Options{})
	for _, name := range []string{"zeta", "alpha", "mid"} {
		if err := srv.AddTool(Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, noop); err != nil {
			t.Fatal(err)
		}
	}
	h := startHarness(t, srv, false)
	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":"raw-1","method":"tools/list"}`)
	if got := strings.Join(toolNames(t, h.expect()), ","); got != "alpha,mid,zeta" {
		t.Fatalf("tools/list = %s, want alpha,mid,zeta (sorted, as the SDK lists)", got)
	}
	h.send(`{"jsonrpc":"2.0","id":"raw-2","method":"tools/call","params":{"name":"mid"}}`)
	if text := fmt.Sprint(h.expect()["result"]); !strings.Contains(text, "ok") {
		t.Fatalf("a tool's call: %s", text)
	}

	if err := srv.AddTool(Tool{Name: "late", InputSchema: json.RawMessage(`{"type":"object"}`)}, noop); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		var m map[string]any
		select {
		case m = <-h.raw:
		case <-deadline:
			t.Fatal("no notifications/tools/list_changed after a tool was added during the session")
		}
		if m["method"] == "notifications/tools/list_changed" {
			break
		}
	}
	h.send(`{"jsonrpc":"2.0","id":"raw-3","method":"tools/list"}`)
	if got := strings.Join(toolNames(t, h.expect()), ","); got != "alpha,late,mid,zeta" {
		t.Fatalf("tools/list after a late tool = %s", got)
	}
	h.send(`{"jsonrpc":"2.0","id":"raw-4","method":"tools/call","params":{"name":"late"}}`)
	if text := fmt.Sprint(h.expect()["result"]); !strings.Contains(text, "ok") {
		t.Fatalf("the late tool's call: %s", text)
	}
}

// A tools/list with a cursor the SDK did not make is refused with Invalid params.
func TestToolsListWithABadCursor(t *testing.T) {
	srv := newSrv(Options{})
	if err := srv.AddTool(Tool{Name: "one", InputSchema: json.RawMessage(`{"type":"object"}`)}, noop); err != nil {
		t.Fatal(err)
	}
	h := startHarness(t, srv, false)
	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":"raw-1","method":"tools/list","params":{"cursor":"not-a-cursor"}}`)
	if code := errorCode(t, h.expect()); code != -32602 {
		t.Fatalf("a bad cursor gave code %d, want the SDK's -32602", code)
	}
}

// A schema with x-mcp-header annotations is the SDK's to check (and to use over HTTP): one it
// refuses is an AddTool error, as before.
func TestHeaderAnnotatedSchemaIsCheckedByTheSDK(t *testing.T) {
	srv := newSrv(Options{})
	bad := Tool{Name: "hdr", InputSchema: json.RawMessage(`{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"X-O"}}}`)}
	if err := srv.AddTool(bad, noop); err == nil || !strings.Contains(err.Error(), "rejected by the MCP SDK") {
		t.Fatalf("an object property with x-mcp-header was accepted: %v", err)
	}
	if _, ok := srv.tools["hdr"]; ok {
		t.Fatal("a refused tool stayed registered")
	}
	good := Tool{Name: "hdr", InputSchema: json.RawMessage(`{"type":"object","properties":{"s":{"type":"string","x-mcp-header":"X-S"}}}`)}
	if err := srv.AddTool(good, noop); err != nil || srv.tools["hdr"] == nil {
		t.Fatalf("a valid header-annotated tool: %v", err)
	}
}
