package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestFallbackAnswersUnknownNames(t *testing.T) {
	tests := []struct {
		name     string
		fallback FallbackHandler
		tool     string
		wantErr  bool   // protocol error
		wantText string // else the result text
	}{
		{"no fallback: SDK error", nil, "nope", true, ""},
		{"fallback guides the model", func(_ context.Context, name string, args json.RawMessage) (*Result, error) {
			return &Result{IsError: true, Content: []Content{{Text: "Tool '" + name + "' not found, args " + string(args)}}}, nil
		}, "nope", false, `Tool 'nope' not found, args {"x":1}`},
		{"known tools bypass the fallback", func(context.Context, string, json.RawMessage) (*Result, error) {
			return &Result{Content: []Content{{Text: "wrong"}}}, nil
		}, "echo", false, ""},
		{"a panicking fallback is contained", func(context.Context, string, json.RawMessage) (*Result, error) {
			panic("boom")
		}, "nope", false, "panic"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, Options{}, echo)
			if tc.fallback != nil {
				srv.SetFallback(tc.fallback)
			}
			cs := startHarness(t, srv, true).client("2025-11-25")
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			args := map[string]any{"x": 1}
			if tc.tool == "echo" {
				args = map[string]any{"text": ""}
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: args})
			if tc.wantErr {
				if err == nil {
					t.Fatalf("want protocol error, got %+v", res)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(res); !strings.Contains(got, tc.wantText) || (tc.wantText == "" && got != "") {
				t.Fatalf("text %q, want %q", got, tc.wantText)
			}
			callEcho(t, cs, "still serving")
		})
	}
}
