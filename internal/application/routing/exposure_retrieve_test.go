package routing

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
)

func decodeRetrieve(t *testing.T, res tool.Result) retrieveAnswer {
	t.Helper()
	if res.IsError {
		t.Fatalf("retrieve_tools failed: %q", res.JoinedText())
	}
	var ans retrieveAnswer
	if err := json.Unmarshal([]byte(res.JoinedText()), &ans); err != nil {
		t.Fatalf("retrieve_tools answer is not JSON: %v\n%s", err, res.JoinedText())
	}
	return ans
}

func retrieveEntries(t *testing.T, res tool.Result) []retrievedTool {
	t.Helper()
	return decodeRetrieve(t, res).Tools
}

// catalogue is a provider with tools whose descriptions make ranking observable.
func catalogue() *fakeProvider {
	mk := func(name, desc string, src tool.Source, a tool.Annotations) tool.Definition {
		return tool.Definition{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: a, Source: src}
	}
	ro := tool.Annotations{Title: "t", ReadOnlyHint: tool.Bool(true), DestructiveHint: tool.Bool(false)}
	wr := tool.Annotations{ReadOnlyHint: tool.Bool(false), DestructiveHint: tool.Bool(false)}
	de := tool.Annotations{ReadOnlyHint: tool.Bool(false), DestructiveHint: tool.Bool(true)}
	notes := tool.PluginSource("notes")
	return &fakeProvider{source: tool.BuiltinSource, defs: []tool.Definition{
		mk("Read", "Reads a text file and returns its lines.", tool.BuiltinSource, ro),
		mk("Write", "Writes a file, replacing its content.", tool.BuiltinSource, wr),
		mk("Bash", "Runs a shell command.", tool.BuiltinSource, de),
		mk("Grep", "Search file contents with a regular expression.", tool.BuiltinSource, ro),
		mk("notes_search", "Search the notes by keyword.", notes, tool.Annotations{}),
		mk("notes_purge", "Delete every note.", notes, de),
	}}
}

func TestRetrieveTools(t *testing.T) {
	ctx := context.Background()
	r := newTestRouter(t, Options{}, catalogue())
	e := NewExposure(r, split())
	call := func(args string) retrieveAnswer {
		return decodeRetrieve(t, e.CallTool(ctx, RetrieveToolsName, json.RawMessage(args)))
	}

	ans := call(`{"query":"search file"}`)
	got := names(toDefs(ans.Tools))
	if len(got) < 2 || got[0] != "Grep" {
		t.Errorf("search file ranked %v, want Grep first", got)
	}
	if ans.Tools[0].Score != 1 || ans.Tools[len(ans.Tools)-1].Score <= 0 || ans.Tools[len(ans.Tools)-1].Score > 1 {
		t.Errorf("scores not scaled to (0, 1]: %+v", ans.Tools)
	}
	for i := 1; i < len(ans.Tools); i++ {
		if ans.Tools[i].Score > ans.Tools[i-1].Score {
			t.Errorf("not sorted by score: %+v", ans.Tools)
		}
	}
	if !strings.HasPrefix(ans.UsageInstructions, "Use call_tool_read for read-only operations, call_tool_write for modifications, call_tool_destructive for deletions. Intent must match tool variant.") {
		t.Errorf("usage_instructions = %q", ans.UsageInstructions)
	}

	byName := map[string]retrievedTool{}
	for _, tt := range call(`{"limit":100}`).Tools {
		byName[tt.Name] = tt
	}
	if len(byName) != 6 {
		t.Fatalf("no-query listing has %d tools, want 6", len(byName))
	}
	for name, want := range map[string]string{"Read": "call_tool_read", "Write": "call_tool_write", "Bash": "call_tool_destructive", "notes_search": "call_tool_write", "notes_purge": "call_tool_destructive"} {
		if byName[name].CallWith != want {
			t.Errorf("%s call_with = %q, want %q", name, byName[name].CallWith, want)
		}
	}
	if a := byName["Bash"].Annotations; a == nil || !a.Destructive() {
		t.Errorf("Bash annotations = %+v", a)
	}
	if byName["notes_search"].Annotations != nil {
		t.Error("a tool without annotations got an annotations object")
	}
	if byName["notes_search"].Source != tool.PluginSource("notes") || string(byName["Read"].InputSchema) != `{"type":"object"}` || byName["Read"].Description == "" {
		t.Errorf("entry fields missing: %+v", byName["notes_search"])
	}

	// The raw JSON uses the seed's field names.
	raw := e.CallTool(ctx, RetrieveToolsName, json.RawMessage(`{"query":"delete note","limit":1}`)).JoinedText()
	for _, field := range []string{`"name":"notes_purge"`, `"inputSchema":`, `"score":1`, `"source":"plugin:notes"`, `"annotations":{`, `"call_with":"call_tool_destructive"`, `"usage_instructions":`} {
		if !strings.Contains(raw, field) {
			t.Errorf("answer lacks %s: %s", field, raw)
		}
	}

	if n := len(call(`{}`).Tools); n != 6 {
		t.Errorf("default listing = %d tools", n)
	}
	if n := len(call(`{"query":"","limit":2}`).Tools); n != 2 {
		t.Errorf("limit 2 gave %d tools", n)
	}
	if a := call(`{"query":"kubernetes"}`); len(a.Tools) != 0 || !strings.Contains(a.Message, "no tool matches") {
		t.Errorf("no-match answer = %+v", a)
	}
	if n := len(call(`null`).Tools); n != 6 {
		t.Errorf("null arguments listed %d tools", n)
	}
}

func TestRetrieveToolsAllowFilter(t *testing.T) {
	s := split()
	s.Allow = []tool.Variant{tool.VariantRead}
	e := NewExposure(newTestRouter(t, Options{}, catalogue()), s)
	ans := decodeRetrieve(t, e.CallTool(context.Background(), RetrieveToolsName, json.RawMessage(`{"query":"file note shell search"}`)))
	got := names(toDefs(ans.Tools))
	slices.Sort(got)
	if !slices.Equal(got, []string{"Grep", "Read"}) {
		t.Errorf("allow [read] retrieve = %v, want only Read and Grep", got)
	}
	if !strings.Contains(ans.UsageInstructions, "This step allows only call_tool_read.") {
		t.Errorf("usage_instructions do not say what is allowed: %q", ans.UsageInstructions)
	}
}

func TestRetrieveToolsBadArguments(t *testing.T) {
	e := NewExposure(newTestRouter(t, Options{}, catalogue()), split())
	tests := []struct{ args, want string }{
		{`{"limit":0}`, "limit must be from 1 to 100, got 0"},
		{`{"limit":101}`, "limit must be from 1 to 100, got 101"},
		{`{"limit":2.5}`, "limit must be an integer from 1 to 100, got number"},
		{`{"limit":"5"}`, "limit must be an integer from 1 to 100, got string"},
		{`{"query":3}`, "query must be a string of words to search tool names and descriptions for, got integer"},
		{`{"querry":"x"}`, `retrieve_tools has no parameter "querry" (did you mean "query"?); its parameters are query and limit`},
		{`[]`, `the arguments of retrieve_tools must be a JSON object such as {"query": "read file", "limit": 10}`},
	}
	for _, tt := range tests {
		res := e.CallTool(context.Background(), RetrieveToolsName, json.RawMessage(tt.args))
		if !res.IsError || res.JoinedText() != tt.want {
			t.Errorf("retrieve_tools(%s) = %q, want error %q", tt.args, res.JoinedText(), tt.want)
		}
	}
}

func toDefs(ts []retrievedTool) []tool.Definition {
	out := make([]tool.Definition, len(ts))
	for i, t := range ts {
		out[i] = tool.Definition{Name: t.Name}
	}
	return out
}
