package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
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

// A tool added before the session is kept out of the SDK (whose AddTool costs two schema
// decodes with 32 KiB buffers each), yet listed and called like one the SDK holds; one added
// while the session runs goes to the SDK too, which announces it.
func TestToolsAddedBeforeAndDuringTheSession(t *testing.T) {
	srv := New(Options{})
	for _, name := range []string{"zeta", "alpha", "mid"} {
		if err := srv.AddTool(Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, noop); err != nil {
			t.Fatal(err)
		}
	}
	for name, reg := range srv.tools {
		if reg.inSDK {
			t.Errorf("%s was handed to the SDK before any session", name)
		}
	}
	srv.noDirect = true // every call through the SDK's session, and so through the middleware
	h := startHarness(t, srv, false)
	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":"raw-1","method":"tools/list"}`)
	if got := strings.Join(toolNames(t, h.expect()), ","); got != "alpha,mid,zeta" {
		t.Fatalf("tools/list = %s, want alpha,mid,zeta (sorted, as the SDK lists)", got)
	}
	h.send(`{"jsonrpc":"2.0","id":"raw-2","method":"tools/call","params":{"name":"mid"}}`)
	if text := fmt.Sprint(h.expect()["result"]); !strings.Contains(text, "ok") {
		t.Fatalf("a registry tool's call: %s", text)
	}

	if err := srv.AddTool(Tool{Name: "late", InputSchema: json.RawMessage(`{"type":"object"}`)}, noop); err != nil {
		t.Fatal(err)
	}
	if !srv.tools["late"].inSDK {
		t.Fatal("a tool added during the session was not handed to the SDK, which announces it")
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
		t.Fatalf("the SDK-held tool's call: %s", text)
	}
}

// A tools/list with a cursor is the SDK's to answer (its cursors are its own): it gets every
// tool first, so its answer is complete too.
func TestToolsListWithCursorGoesToTheSDK(t *testing.T) {
	srv := New(Options{})
	if err := srv.AddTool(Tool{Name: "one", InputSchema: json.RawMessage(`{"type":"object"}`)}, noop); err != nil {
		t.Fatal(err)
	}
	h := startHarness(t, srv, false)
	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":"raw-1","method":"tools/list","params":{"cursor":"not-a-cursor"}}`)
	if code := errorCode(t, h.expect()); code != -32602 {
		t.Fatalf("a bad cursor gave code %d, want the SDK's -32602", code)
	}
	if !srv.tools["one"].inSDK {
		t.Fatal("the SDK answered a cursor without holding the tools")
	}
}

// A schema with x-mcp-header annotations is the SDK's to check (and to use over HTTP): one it
// refuses is an AddTool error, as before.
func TestHeaderAnnotatedSchemaIsCheckedByTheSDK(t *testing.T) {
	srv := New(Options{})
	bad := Tool{Name: "hdr", InputSchema: json.RawMessage(`{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"X-O"}}}`)}
	if err := srv.AddTool(bad, noop); err == nil || !strings.Contains(err.Error(), "rejected by the MCP SDK") {
		t.Fatalf("an object property with x-mcp-header was accepted: %v", err)
	}
	if _, ok := srv.tools["hdr"]; ok {
		t.Fatal("a refused tool stayed registered")
	}
	good := Tool{Name: "hdr", InputSchema: json.RawMessage(`{"type":"object","properties":{"s":{"type":"string","x-mcp-header":"X-S"}}}`)}
	if err := srv.AddTool(good, noop); err != nil || !srv.tools["hdr"].inSDK {
		t.Fatalf("a valid header-annotated tool: %v", err)
	}
}

// What the registry saves: adding awf's six built-in tools allocated about 470 KB in the SDK;
// kept out of it, the same schemas cost a few KB.
func TestAddingToolsAllocatesLittle(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string","description":"` + strings.Repeat("x", 300) + `"},"offset":{"type":"integer"},"limit":{"type":"integer"}},"required":["file_path"],"additionalProperties":false}`)
	srv := New(Options{})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 6 {
		if err := srv.AddTool(Tool{Name: fmt.Sprintf("t%d", i), InputSchema: schema}, noop); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 100<<10 {
		t.Fatalf("adding six tools allocated %d bytes, over 100 KB: are they going through the SDK's AddTool again?", n)
	}
}
