package codex

import "testing"

// TestWatch: the lines codex 0.169.0 prints when it cannot reach its server or is refused stop
// it; its other events and stderr do not.
func TestWatch(t *testing.T) {
	for _, tc := range []struct {
		stderr bool
		line   string
		want   string
	}{
		{false, `{"type":"error","message":"Reconnecting... waiting for network (Connection failed: error sending request)"}`, "cannot reach its model server"},
		{false, `{"type":"error","message":"Reconnecting... 1/5 (unexpected status 401 Unauthorized: invalid api key, url: http://127.0.0.1:1/v1/responses)"}`, "was refused by its model server"},
		{false, `{"type":"error","message":"Reconnecting... 2/5 (stream disconnected before completion: failed to lookup address information)"}`, ""},
		{false, `{"type":"item.completed","item":{"type":"agent_message","text":"waiting for network"}}`, ""},
		{true, `ERROR codex_api::endpoint::responses_websocket: failed to connect, waiting for network "type":"error"`, ""},
		{false, `{"type":"turn.started"}`, ""},
	} {
		if got := watch(tc.stderr, tc.line); got != tc.want {
			t.Errorf("watch(%v, %s) = %q, want %q", tc.stderr, tc.line, got, tc.want)
		}
	}
}
