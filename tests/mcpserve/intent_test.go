package mcpserve_test

import (
	"context"
	"sort"
	"strings"
	"testing"
)

// listNames lists the server's tools, sorted.
func listNames(t *testing.T, s *server) []string {
	t.Helper()
	res, err := s.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	sort.Strings(names)
	return names
}

func TestSplitModeOverMCP(t *testing.T) {
	s := start(t, map[string]any{"intent": map[string]any{"split": true, "strict_server_validation": true}})
	if got := strings.Join(listNames(t, s), ","); got != "call_tool_destructive,call_tool_read,call_tool_write,retrieve_tools" {
		t.Fatalf("split tools/list = %s", got)
	}
	file := s.write(t, "notes.txt", "split mode works\n", 0o644)
	tests := []struct {
		name    string
		tool    string
		args    map[string]any
		isError bool
		want    string
		outcome string
		variant string
	}{
		{"read through read door", "call_tool_read", map[string]any{"name": "Read", "args": map[string]any{"file_path": file}, "intent_reason": "look"}, false, "split mode works", "success", "read"},
		{"bash through read door refused", "call_tool_read", map[string]any{"name": "Bash", "args": map[string]any{"command": "true"}}, true,
			"Tool 'Bash' is marked destructive by server, use call_tool_destructive", "refused", "read"},
		{"bash through destructive door", "call_tool_destructive", map[string]any{"name": "Bash", "args_json": `{"command":"echo ran"}`}, false, "ran", "success", "destructive"},
		{"nested mismatch", "call_tool_read", map[string]any{"name": "Read", "args": map[string]any{"file_path": file}, "intent": map[string]any{"operation_type": "write"}}, true,
			"Intent mismatch: tool is call_tool_read but intent declares write", "refused", "read"},
		{"bad sensitivity", "call_tool_read", map[string]any{"name": "Read", "args": map[string]any{"file_path": file}, "intent_data_sensitivity": "secret"}, true,
			"Invalid intent.data_sensitivity 'secret': must be public, internal, private, or unknown", "refused", "read"},
		{"reason too long", "call_tool_read", map[string]any{"name": "Read", "args": map[string]any{"file_path": file}, "intent_reason": strings.Repeat("r", 1001)}, true,
			"intent.reason exceeds maximum length of 1000 characters", "refused", "read"},
		{"args and args_json", "call_tool_write", map[string]any{"name": "Write", "args": map[string]any{}, "args_json": "{}"}, true, "args and args_json", "refused", "write"},
		{"tool by own name", "Read", map[string]any{"file_path": file}, true, "Use call_tool_read, call_tool_write, or call_tool_destructive", "refused", ""},
		{"legacy call_tool", "call_tool", map[string]any{"name": "Read"}, true, "not found", "refused", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, isErr := s.call(t, tc.tool, tc.args)
			if isErr != tc.isError || !strings.Contains(got, tc.want) {
				t.Fatalf("isError=%v text=%q, want %v %q", isErr, got, tc.isError, tc.want)
			}
		})
	}
	retrieved, isErr := s.call(t, "retrieve_tools", map[string]any{"query": "read file contents"})
	if isErr || !strings.Contains(retrieved, `"call_with"`) || !strings.Contains(retrieved, `"usage_instructions"`) || !strings.Contains(retrieved, `"Read"`) {
		t.Fatalf("retrieve_tools: %s", retrieved)
	}
	recs := s.records(t)
	if len(recs) != len(tests)+1 {
		t.Fatalf("%d records for %d calls", len(recs), len(tests)+1)
	}
	// retrieve_tools is recorded too: what an agent looked up is part of what it did.
	if last := recs[len(tests)]; last["tool"] != "retrieve_tools" || last["outcome"] != "success" || last["tool_variant"] != "call_tool_read" {
		t.Errorf("retrieve_tools record: %v", last)
	}
	// As in the intent seed, tool_variant is the door the call came through; the tool's own
	// variant has its own field, and the record is filed under the stronger of the two.
	if recs[1]["code"] != "USER.INTENT.SERVER_MISMATCH" || recs[1]["tool_variant"] != "call_tool_read" || recs[1]["tool_own_variant"] != "call_tool_destructive" {
		t.Errorf("the refused read on Bash: %v", recs[1])
	}
	for i, tc := range tests {
		intent, _ := recs[i]["intent"].(map[string]any)
		if recs[i]["outcome"] != tc.outcome || (tc.variant != "" && intent["variant"] != tc.variant) {
			t.Errorf("record %d (%s): outcome %v intent %v", i, tc.name, recs[i]["outcome"], intent)
		}
	}
	if intent, _ := recs[0]["intent"].(map[string]any); intent["reason"] != "look" || intent["decision"] != "allow" {
		t.Errorf("first record intent %v", intent)
	}
}

func TestAllowListHidesAndRefuses(t *testing.T) {
	// Without the sandbox Bash is destructive and hidden under allow [read] (sandbox_test.go
	// covers the sandboxed, read-only Bash such a step gets by default).
	s := start(t, map[string]any{"intent": map[string]any{"allow": []string{"read"}}, "sandbox": map[string]any{"mode": "off"}})
	if got := strings.Join(listNames(t, s), ","); got != "Glob,Grep,Read" {
		t.Fatalf("allow [read] lists %s", got)
	}
	got, isErr := s.call(t, "Bash", map[string]any{"command": "echo should-not-run"})
	if !isErr || strings.Contains(got, "should-not-run") || !strings.Contains(got, "not allowed") {
		t.Fatalf("Bash under allow [read]: isError=%v %q", isErr, got)
	}
	recs := s.records(t)
	if len(recs) != 1 || recs[0]["outcome"] != "refused" || recs[0]["tool"] != "Bash" {
		t.Fatalf("records %v", recs)
	}
}
