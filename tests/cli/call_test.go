package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCallAndActivity(t *testing.T) {
	dir := project(t, map[string]string{"flow.yaml": flowWorkflow})
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"read door refuses Bash with the seed text", []string{"call", "tool-read", "Bash", "--args", `{"command":"true"}`}, 1,
			"Tool 'Bash' is marked destructive by server, use call_tool_destructive"},
		{"destructive door runs Bash", []string{"call", "tool-destructive", "Bash", "--args", `{"command":"echo ran-it"}`, "--reason", "demo"}, 0, "ran-it"},
		{"non-strict turns the refusal into a warning", []string{"call", "tool-read", "Bash", "--args", `{"command":"echo lenient"}`, "--strict=false"}, 0, "lenient"},
		{"bad variant", []string{"call", "tool-delete", "Bash"}, 1, "USER.CLI.INVALID_VARIANT"},
		{"bad json", []string{"call", "tool-read", "Read", "--args", "{"}, 1, "USER.CLI.INVALID_ARGS"},
		{"bad sensitivity", []string{"call", "tool-read", "Read", "--args", `{"file_path":"x"}`, "--sensitivity", "secret"}, 1,
			"Invalid intent.data_sensitivity 'secret': must be public, internal, private, or unknown"},
		{"wrong-typed argument named", []string{"call", "tool-read", "Read", "--args", `{"file_path":"x","limit":"ten"}`}, 1, "limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := awf(t, dir, nil, tc.args...)
			if r.code != tc.wantCode || !strings.Contains(r.stdout+r.stderr, tc.want) {
				t.Fatalf("exit %d (want %d), output:\n%s%s\nwant %q", r.code, tc.wantCode, r.stdout, r.stderr, tc.want)
			}
		})
	}

	// Every call that reached the router is recorded; filter by intent type.
	r := awf(t, dir, nil, "activity", "list", "--run", "cli", "-o", "json")
	var recs []struct {
		ID, Tool, Outcome string
		Intent            struct{ Variant, Decision, Reason, Warning string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil || r.code != 0 {
		t.Fatalf("activity json: %v %s %s", err, r.stdout, r.stderr)
	}
	if len(recs) != 5 {
		t.Fatalf("%d records, want 5: %+v", len(recs), recs)
	}
	if recs[0].Outcome != "refused" || recs[1].Intent.Reason != "demo" || recs[2].Intent.Decision != "warn" || recs[2].Intent.Warning == "" {
		t.Fatalf("records %+v", recs)
	}
	// --intent-type filters on the effective variant: the two calls declared read on Bash (one
	// refused, one run with --strict=false) are destructive calls and are listed as such.
	r = awf(t, dir, nil, "activity", "list", "--intent-type", "destructive")
	if r.code != 0 || !strings.Contains(r.stdout, "INTENT") || strings.Count(r.stdout, "\n") != 4 ||
		strings.Count(r.stdout, "destructive (declared read)") != 2 {
		t.Fatalf("filtered table:\n%s", r.stdout)
	}
	if r := awf(t, dir, nil, "activity", "list", "--intent-type", "read"); r.code != 0 || strings.Contains(r.stdout, "Bash") {
		t.Fatalf("a call on Bash is listed as read:\n%s", r.stdout)
	}
	if r := awf(t, dir, nil, "activity", "list", "--intent-type", "delete"); r.code != 1 || !strings.Contains(r.stderr, "read, write or destructive") {
		t.Fatalf("bad intent type: %d %s", r.code, r.stderr)
	}
	show := awf(t, dir, nil, "activity", "show", recs[1].ID[:8])
	if show.code != 0 || !strings.Contains(show.stdout, `"reason": "demo"`) {
		t.Fatalf("show: %d %s %s", show.code, show.stdout, show.stderr)
	}
	if r := awf(t, dir, nil, "activity", "show", "ffffffffff"); r.code != 1 || !strings.Contains(r.stderr, "USER.ACTIVITY.NOT_FOUND") {
		t.Fatalf("show unknown: %d %s", r.code, r.stderr)
	}
}
