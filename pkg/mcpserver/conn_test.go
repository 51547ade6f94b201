package mcpserver

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A list_changed reaches only a client that listed the tools before the last one was added.
func TestStaleListChanged(t *testing.T) {
	changed := &jsonrpc.Request{Method: "notifications/tools/list_changed"}
	other := &jsonrpc.Request{Method: "notifications/progress"}
	for _, tc := range []struct {
		name          string
		msg           jsonrpc.Message
		listed, added int64
		stale         bool
	}{
		{"never listed", changed, -1, 3, true},
		{"listed after the last tool", changed, 3, 3, true},
		{"listed before a tool was added", changed, 2, 3, false},
		{"another notification", other, -1, 3, false},
		{"a response", &jsonrpc.Response{}, -1, 3, false},
	} {
		c := newConn(nil, nil, 1, nil, nil, nil)
		c.listedGen.Store(tc.listed)
		c.toolsGen.Store(tc.added)
		if got := c.staleListChanged(tc.msg); got != tc.stale {
			t.Errorf("%s: stale %v, want %v", tc.name, got, tc.stale)
		}
	}
}
