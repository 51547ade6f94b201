package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// richBlocks are one block of each MCP content type, as a proxied server would send them.
var richBlocks = []string{
	`{"type":"text","text":"noted","annotations":{"audience":["user"],"priority":0.5},"_meta":{"k":"v"}}`,
	`{"type":"image","mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUg=="}`,
	`{"type":"audio","mimeType":"audio/wav","data":"UklGRiQAAABXQVZF"}`,
	`{"type":"resource_link","uri":"file:///tmp/a.txt","name":"a.txt","mimeType":"text/plain","size":12}`,
	`{"type":"resource","resource":{"uri":"mem://x","mimeType":"text/plain","text":"hello"}}`,
	`{"type":"resource","resource":{"uri":"mem://b","mimeType":"application/octet-stream","blob":"AAECAw=="}}`,
}

// Every block, structuredContent, _meta and isError reach the client as the handler gave them.
func TestRichResultOnTheWire(t *testing.T) {
	srv := newSrv(Options{})
	content := []Content{{Text: "plain first"}}
	for _, b := range richBlocks {
		content = append(content, Content{Type: "ignored", Raw: json.RawMessage(b)})
	}
	structured := `{"temperature":22.5,"conditions":"sunny","z":[1,2]}`
	if err := srv.AddTool(Tool{Name: "rich", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, json.RawMessage) (*Result, error) {
		return &Result{Content: content, IsError: true, StructuredContent: json.RawMessage(structured), Meta: json.RawMessage(`{"trace":"t1"}`)}, nil
	}); err != nil {
		t.Fatal(err)
	}
	h := startHarness(t, srv, false)
	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"rich","arguments":{}}}`)
	res, ok := h.expect()["result"].(map[string]any)
	if !ok {
		t.Fatal("no result")
	}
	got := res["content"].([]any)
	if len(got) != len(richBlocks)+1 || !reflect.DeepEqual(got[0], map[string]any{"type": "text", "text": "plain first"}) {
		t.Fatalf("content = %v", got)
	}
	for i, b := range richBlocks {
		var want any
		_ = json.Unmarshal([]byte(b), &want)
		if !reflect.DeepEqual(got[i+1], want) {
			t.Errorf("block %d = %v, want %s", i, got[i+1], b)
		}
	}
	var wantStructured any
	_ = json.Unmarshal([]byte(structured), &wantStructured)
	if !reflect.DeepEqual(res["structuredContent"], wantStructured) || res["isError"] != true ||
		!reflect.DeepEqual(res["_meta"], map[string]any{"trace": "t1"}) {
		t.Errorf("result = %v", res)
	}
}

func TestRichResultKeepsStructuredBytes(t *testing.T) {
	raw := json.RawMessage(`{"b":1,"a":2}`)
	out, err := sdkResult("t", &Result{StructuredContent: raw})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out.StructuredContent)
	if string(b) != string(raw) || len(out.Content) != 0 || out.Content == nil {
		t.Errorf("structured = %s, content %v", b, out.Content)
	}
	if out, err = sdkResult("t", &Result{Meta: json.RawMessage(`{"m":1}`), Content: []Content{{Text: "x"}}}); err != nil || out.Meta["m"] != 1.0 || textOf(out) != "x" {
		t.Errorf("meta result = %+v, %v", out, err)
	}
}

func TestRichResultRefusals(t *testing.T) {
	for name, r := range map[string]*Result{
		"non-text without raw": {Content: []Content{{Type: "image"}}, Meta: json.RawMessage(`{}`)},
		"raw not JSON":         {Content: []Content{{Raw: json.RawMessage(`{"type":`)}}},
		"unknown block type":   {Content: []Content{{Raw: json.RawMessage(`{"type":"hologram"}`)}}},
		"meta not an object":   {Meta: json.RawMessage(`[1]`)},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := sdkResult("t", r)
			var wire *jsonrpc.Error
			if !errors.As(err, &wire) || wire.Code != jsonrpc.CodeInternalError {
				t.Fatalf("error = %v, want an internal JSON-RPC error", err)
			}
		})
	}
}
