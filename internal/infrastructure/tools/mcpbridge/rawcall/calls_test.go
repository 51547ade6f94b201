package rawcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/awf-dev/awf/internal/infrastructure/tools/mcpbridge"
)

// The tools/call line awf writes: one line of valid JSON, the session's _meta learned from the
// SDK's tools/list (none under older protocols), the log level, the token, the arguments
// compacted; arguments that are not JSON are refused before anything is written.
func TestRawCallRequest(t *testing.T) {
	newProto := &jsonrpc.Request{Method: "tools/list", Params: json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"awf","version":"1"},"io.modelcontextprotocol/clientCapabilities":{},"other":1}}`)}
	tests := []struct {
		name, tool, token string
		learned           *jsonrpc.Request
		args              string
		want              string
	}{
		{"old protocol", "echo", "", &jsonrpc.Request{Method: "tools/list"}, `{"text":"x"}`,
			`{"jsonrpc":"2.0","id":"awf-1","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/logLevel":"info"},"name":"echo","arguments":{"text":"x"}}}`},
		{"new protocol, token, pretty arguments", "get-sum", "awf-p-3", newProto, "{\n  \"a\": 1,\n  \"b\": [2, 3]\n}",
			`{"jsonrpc":"2.0","id":"awf-1","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
				`"io.modelcontextprotocol/clientInfo":{"name":"awf","version":"1"},"io.modelcontextprotocol/clientCapabilities":{},` +
				`"io.modelcontextprotocol/logLevel":"info","progressToken":"awf-p-3"},"name":"get-sum","arguments":{"a":1,"b":[2,3]}}}`},
		{"no arguments, a name to escape", "say \"hi\"<é>", "", &jsonrpc.Request{Method: "tools/list"}, " ",
			`{"jsonrpc":"2.0","id":"awf-1","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/logLevel":"info"},"name":"say \"hi\"\u003cé\u003e","arguments":{}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r calls
			r.learn(&jsonrpc.Request{Method: "server/discover", Params: json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"0"}}`)})
			if r.learned.Load() {
				t.Fatal("learned from a request that is not tools/list")
			}
			r.learn(tt.learned)
			id, _, err := r.open()
			if err != nil {
				t.Fatal(err)
			}
			line, err := r.request(id, tt.tool, json.RawMessage(tt.args), tt.token, nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(line) != tt.want+"\n" || !json.Valid(line) || bytes.Count(line, []byte("\n")) != 1 {
				t.Errorf("line =\n%s\nwant\n%s", line, tt.want)
			}
		})
	}
	var r calls
	if _, err := r.request(`"awf-1"`, "echo", json.RawMessage(`{"a":`), "", nil); err == nil {
		t.Error("arguments that are not JSON were written")
	}
}

// The reading goroutine hands each reply to its call: a result, the server's JSON-RPC error, a
// request for input awf cannot give; a line for the SDK passes, a late reply is dropped, and a
// connection that ends fails the calls still waiting and any later one.
func TestRawCallsTake(t *testing.T) {
	var r calls
	r.learn(&jsonrpc.Request{Method: "tools/list"})
	ok, okCh, _ := r.open()
	bad, badCh, _ := r.open()
	more, moreCh, _ := r.open()
	late, _, _ := r.open()
	r.close(late)
	for _, c := range []struct {
		line  string
		taken bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"awf-1 is not mine"}]}}`, false},
		{`{"jsonrpc":"2.0","id":"awf-9","method":"sampling/createMessage","params":{}}`, false},
		{`{"result":{"content":[{"type":"text","text":"ok"}],"isError":true},"jsonrpc":"2.0","id":` + ok + `}`, true},
		{`{"jsonrpc":"2.0","id":` + bad + `,"error":{"code":-32602,"message":"Unknown tool: nope"}}`, true},
		{`{"jsonrpc":"2.0","id":` + more + `,"result":{"resultType":"incomplete","inputRequests":{}}}`, true},
		{`{"jsonrpc":"2.0","id":` + late + `,"result":{"content":[]}}`, true},
	} {
		if got := r.take([]byte(c.line)); got != c.taken {
			t.Errorf("take(%s) = %v", c.line, got)
		}
	}
	if got := <-okCh; got.err != nil || !got.res.IsError || got.res.JoinedText() != "ok" {
		t.Errorf("result = %+v", got)
	}
	var rpcErr *jsonrpc.Error
	if got := <-badCh; !errors.As(got.err, &rpcErr) || rpcErr.Code != -32602 || rpcErr.Message != "Unknown tool: nope" {
		t.Errorf("JSON-RPC error = %v", got.err)
	}
	if got := <-moreCh; got.err == nil || !strings.Contains(got.err.Error(), "elicitation or sampling") {
		t.Errorf("incomplete result = %+v", got)
	}
	if r.pending.Load() != 0 {
		t.Errorf("%d calls still pending", r.pending.Load())
	}
	_, waitCh, _ := r.open()
	r.fail(mcp.ErrConnectionClosed)
	if got := <-waitCh; !errors.Is(got.err, mcp.ErrConnectionClosed) {
		t.Errorf("waiting call after the connection ended: %v", got.err)
	}
	if _, _, err := r.open(); !errors.Is(err, mcp.ErrConnectionClosed) {
		t.Errorf("a call on a connection that ended: %v", err)
	}
}

// A result read from the wire becomes the same tool.Result the SDK's decoding made (the
// blocks' JSON equal as values: awf now passes the server's own bytes).
func TestRawResultMatchesSDKDecoding(t *testing.T) {
	size := int64(9)
	results := []*mcp.CallToolResult{
		{Content: []mcp.Content{&mcp.TextContent{Text: "plain ✓ \"q\""}}},
		{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "noted", Annotations: &mcp.Annotations{Priority: 0.5}},
			&mcp.TextContent{Text: "meta", Meta: mcp.Meta{"m": 1}}, &mcp.ImageContent{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G', 0, 255}}}},
		{Content: []mcp.Content{&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF1")},
			&mcp.ResourceLink{URI: "file:///a.txt", Name: "a", MIMEType: "text/plain", Size: &size},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "mem://x", MIMEType: "text/plain", Text: "hello"}},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "mem://b", Blob: []byte{0, 1, 2}}}}},
		{Content: []mcp.Content{}, StructuredContent: map[string]any{"n": 1.5, "list": []any{"a", true}},
			Meta: mcp.Meta{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "up"}, "k": "v"}},
		{Content: []mcp.Content{}, Meta: mcp.Meta{"io.modelcontextprotocol/serverInfo": 1}},
	}
	for i, sdkRes := range results {
		wire, err := json.Marshal(sdkRes)
		if err != nil {
			t.Fatal(err)
		}
		var decoded mcp.CallToolResult
		if err := json.Unmarshal(wire, &decoded); err != nil {
			t.Fatal(err)
		}
		want := mcpbridge.FromCallResult(&decoded)
		var r calls
		r.learn(&jsonrpc.Request{Method: "tools/list"})
		id, ch, _ := r.open()
		if !r.take([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":` + string(wire) + `}`)) {
			t.Fatalf("result %d not taken", i)
		}
		got := (<-ch).res
		if got.IsError != want.IsError || len(got.Content) != len(want.Content) || !sameJSON(got.Structured, want.Structured) || !sameJSON(got.Meta, want.Meta) {
			t.Errorf("result %d = %+v\nwant %+v", i, got, want)
			continue
		}
		for j := range want.Content {
			g, w := got.Content[j], want.Content[j]
			if g.Type != w.Type || g.Text != w.Text || (g.Raw == nil) != (w.Raw == nil) || !sameJSON(g.Raw, w.Raw) {
				t.Errorf("result %d block %d = %+v (raw %s)\nwant %+v (raw %s)", i, j, g, g.Raw, w, w.Raw)
			}
		}
	}
}

func sameJSON(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
