package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func nopHandler(context.Context, json.RawMessage) (*Result, error) { return nil, nil }

func TestAddToolValidation(t *testing.T) {
	obj := json.RawMessage(`{"type":"object"}`)
	cases := []struct {
		name    string
		tool    Tool
		handler Handler
		wantErr string // "" means accepted
	}{
		{"valid", Tool{Name: "Read", InputSchema: obj}, nopHandler, ""},
		{"dotted and dashed", Tool{Name: "plugin_op.v2-x", InputSchema: obj}, nopHandler, ""},
		{"schema with properties", Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)}, nopHandler, ""},
		{"empty name", Tool{InputSchema: obj}, nopHandler, "name is empty"},
		{"space in name", Tool{Name: "my tool", InputSchema: obj}, nopHandler, `contains ' '`},
		{"slash in name", Tool{Name: "a/b", InputSchema: obj}, nopHandler, `contains '/'`},
		{"long name", Tool{Name: strings.Repeat("a", 129), InputSchema: obj}, nopHandler, "limit is 128"},
		{"nil handler", Tool{Name: "t", InputSchema: obj}, nil, "handler is nil"},
		{"no schema", Tool{Name: "t"}, nopHandler, `use {"type":"object"}`},
		{"schema not JSON", Tool{Name: "t", InputSchema: json.RawMessage(`{type:object}`)}, nopHandler, "must be a JSON object"},
		{"schema an array", Tool{Name: "t", InputSchema: json.RawMessage(`[]`)}, nopHandler, "must be a JSON object"},
		{"schema null", Tool{Name: "t", InputSchema: json.RawMessage(`null`)}, nopHandler, "got null"},
		{"schema without type", Tool{Name: "t", InputSchema: json.RawMessage(`{"properties":{}}`)}, nopHandler, `"type": "object", got no type`},
		{"schema of type string", Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"string"}`)}, nopHandler, `got "string"`},
		{"output schema, icons, _meta", Tool{Name: "t", InputSchema: obj, OutputSchema: obj, Icons: json.RawMessage(`[{"src":"data:,x"}]`), Meta: json.RawMessage(`{"k":1}`)}, nopHandler, ""},
		{"output schema an array", Tool{Name: "t", InputSchema: obj, OutputSchema: json.RawMessage(`[]`)}, nopHandler, "output schema must be a JSON object"},
		{"icons an object", Tool{Name: "t", InputSchema: obj, Icons: json.RawMessage(`{"src":"x"}`)}, nopHandler, "icons must be a JSON array"},
		{"_meta an array", Tool{Name: "t", InputSchema: obj, Meta: json.RawMessage(`[1]`)}, nopHandler, "_meta must be a JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := newSrv(Options{}).AddTool(tc.tool, tc.handler)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("AddTool = %v, want success", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("AddTool = %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestAddToolRefusesDuplicates(t *testing.T) {
	srv := newSrv(Options{})
	tl := Tool{Name: "dup", InputSchema: json.RawMessage(`{"type":"object"}`)}
	if err := srv.AddTool(tl, nopHandler); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddTool(tl, nopHandler); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Fatalf("second AddTool = %v, want a duplicate error", err)
	}
}

func TestAddToolKeepsItsOwnSchemaCopy(t *testing.T) {
	schema := json.RawMessage(`{"type":"object"}`)
	got := sdkTool(Tool{Name: "t", InputSchema: schema})
	copy(schema, `{"type":"array" }`)
	if s := string(got.InputSchema.(json.RawMessage)); s != `{"type":"object"}` {
		t.Fatalf("listed schema changed with the caller's slice: %s", s)
	}
}

func TestSDKAnnotations(t *testing.T) {
	yes, no := ptr(true), ptr(false)
	cases := []struct {
		name string
		in   *Annotations
		want string // JSON of the SDK annotations; "null" for none
	}{
		{"nil", nil, "null"},
		{"empty", &Annotations{}, "null"},
		{"title only", &Annotations{Title: "T"}, `{"idempotentHint":false,"readOnlyHint":false,"title":"T"}`},
		{"read-only", &Annotations{ReadOnlyHint: yes}, `{"idempotentHint":false,"readOnlyHint":true}`},
		{"write", &Annotations{ReadOnlyHint: no, DestructiveHint: no, IdempotentHint: yes}, `{"destructiveHint":false,"idempotentHint":true,"readOnlyHint":false}`},
		{"destructive open world", &Annotations{DestructiveHint: yes, OpenWorldHint: yes}, `{"destructiveHint":true,"idempotentHint":false,"openWorldHint":true,"readOnlyHint":false}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.Marshal(sdkAnnotations(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tc.want {
				t.Fatalf("annotations = %s, want %s", data, tc.want)
			}
		})
	}
	in := &Annotations{DestructiveHint: yes}
	out := sdkAnnotations(in)
	*in.DestructiveHint = false
	if !*out.DestructiveHint {
		t.Fatal("the SDK annotations share the caller's hint pointer")
	}
}

func TestSDKResult(t *testing.T) {
	cases := []struct {
		name    string
		in      *Result
		want    string
		isError bool
		wantErr bool
	}{
		{name: "nil", in: nil, want: ""},
		{name: "text", in: &Result{Content: []Content{{Type: "text", Text: "a"}, {Text: "b"}}}, want: "a\nb"},
		{name: "tool error", in: &Result{IsError: true, Content: []Content{{Text: "no such file"}}}, want: "no such file", isError: true},
		{name: "unsupported type", in: &Result{Content: []Content{{Type: "image"}}}, wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := sdkResult("t", tc.in)
			if tc.wantErr {
				var wire *jsonrpc.Error
				if !errors.As(err, &wire) || wire.Code != jsonrpc.CodeInternalError {
					t.Fatalf("error = %v, want an internal JSON-RPC error", err)
				}
				return
			}
			if err != nil || textOf(res) != tc.want || res.IsError != tc.isError || res.Content == nil {
				t.Fatalf("result = %+v, %v; want text %q isError %v", res, err, tc.want, tc.isError)
			}
		})
	}
}

func TestRPCError(t *testing.T) {
	coded := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"}
	cases := []struct {
		err  error
		want int64
	}{
		{errors.New("plain"), jsonrpc.CodeInternalError},
		{coded, jsonrpc.CodeInvalidParams},
		{fmt.Errorf("wrapped: %w", coded), jsonrpc.CodeInvalidParams},
		{context.Canceled, jsonrpc.CodeInternalError},
	}
	for _, tc := range cases {
		var wire *jsonrpc.Error
		if got := rpcError(tc.err); !errors.As(got, &wire) || wire.Code != tc.want {
			t.Errorf("rpcError(%v) = %v, want code %d", tc.err, got, tc.want)
		}
	}
}

// The wrapper is what the SDK calls; check its panic recovery directly too.
func TestWrapRecoversPanics(t *testing.T) {
	srv := newSrv(Options{})
	h := srv.wrap("p", func(context.Context, json.RawMessage) (*Result, error) { panic(errors.New("nil map")) })
	res, err := h(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "p"}})
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "nil map") {
		t.Fatalf("wrapped panic = %+v, %v; want an error result", res, err)
	}
	if n := srv.inFlight.Load(); n != 0 {
		t.Fatalf("in-flight count after a panic = %d, want 0", n)
	}
}

// A definition's title, outputSchema, icons and _meta reach the client's tools/list as given
// (a proxy passes on what another server declared); a tool without them lists none.
func TestToolsListCarriesEveryDefinitionField(t *testing.T) {
	out := `{"type":"object","properties":{"temperature":{"type":"number"}},"required":["temperature"]}`
	icons := `[{"src":"https://example.com/i.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"}]`
	meta := `{"vendor/x":{"a":[1,true]}}`
	srv := newSrv(Options{})
	full := Tool{Name: "full", Title: "Full tool", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(out),
		Icons: json.RawMessage(icons), Meta: json.RawMessage(meta), Annotations: &Annotations{Title: "Annotated title"}}
	if err := srv.AddTool(full, nopHandler); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddTool(Tool{Name: "bare", InputSchema: json.RawMessage(`{"type":"object"}`)}, nopHandler); err != nil {
		t.Fatal(err)
	}
	h := startHarness(t, srv, false)
	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	resp := h.expect()
	result, _ := resp["result"].(map[string]any)
	list, _ := result["tools"].([]any)
	byName := map[string]map[string]any{}
	for _, x := range list {
		m, _ := x.(map[string]any)
		byName[fmt.Sprint(m["name"])] = m
	}
	same := func(got any, want string) bool {
		var w any
		_ = json.Unmarshal([]byte(want), &w)
		g, _ := json.Marshal(got)
		wb, _ := json.Marshal(w)
		return string(g) == string(wb)
	}
	f := byName["full"]
	if f["title"] != "Full tool" || !same(f["outputSchema"], out) || !same(f["icons"], icons) || !same(f["_meta"], meta) {
		t.Errorf("full tool listed as %v", f)
	}
	for _, k := range []string{"title", "outputSchema", "icons", "_meta"} {
		if v, ok := byName["bare"][k]; ok {
			t.Errorf("bare tool lists %s = %v", k, v)
		}
	}
}
