package opencode

import "testing"

// TestWatch: the log line opencode 1.18.33 prints when a model request cannot connect stops
// it; other errors, other levels and stdout do not.
func TestWatch(t *testing.T) {
	const refused = `timestamp=2026-11-28T16:57:06.589Z level=ERROR run=58e1f97f message="stream error" providerID=opencode modelID=big-pickle error.error="AI_APICallError: Cannot connect to API: Unable to connect. Is the computer able to access the url?"`
	for _, tc := range []struct {
		stderr bool
		line   string
		want   string
	}{
		{true, refused, "cannot reach its model server"},
		{false, refused, ""},
		{true, `timestamp=2026-11-28T16:59:27.260Z level=ERROR message="stream error" error.error="AI_APICallError: invalid api key"`, ""},
		{true, `timestamp=2026-11-28T16:56:49.212Z level=INFO message="event connected"`, ""},
	} {
		if got := watch(tc.stderr, tc.line); got != tc.want {
			t.Errorf("watch(%v, %.60s…) = %q, want %q", tc.stderr, tc.line, got, tc.want)
		}
	}
}
