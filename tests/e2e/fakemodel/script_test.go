package fakemodel

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestNameMatches(t *testing.T) {
	cases := []struct {
		want, name string
		ok         bool
	}{
		{"Read", "Read", true},
		{"Read", "mcp__awf__Read", true}, // claude
		{"Read", "mcp_awf_Read", true},   // gemini
		{"Read", "awf_Read", true},       // opencode
		{"Read", "mcp__awf/Read", true},  // codex namespace
		{"Read", "read", false},          // opencode built-in
		{"Read", "read_file", false},     // gemini built-in
		{"Read", "awf_ReadMany", false},  // a different tool
		{"Read", "_Read", false},         // empty prefix
		{"Read", "mcp__awf__Reader", false},
		{"", "Read", false},
	}
	for _, c := range cases {
		if got := nameMatches(c.want, c.name); got != c.ok {
			t.Errorf("nameMatches(%q, %q) = %v, want %v", c.want, c.name, got, c.ok)
		}
	}
}

func TestMatchToolPrefersProxyName(t *testing.T) {
	cases := []struct {
		offered []string
		want    string
		ok      bool
	}{
		{[]string{"Read", "mcp__awf__Read"}, "mcp__awf__Read", true},
		{[]string{"mcp__awf__Read", "Read"}, "mcp__awf__Read", true},
		{[]string{"Read"}, "Read", true},
		{[]string{"read", "Bash"}, "", false},
		{nil, "", false},
	}
	for _, c := range cases {
		got, ok := matchTool("Read", c.offered)
		if got != c.want || ok != c.ok {
			t.Errorf("matchTool(Read, %v) = %q, %v; want %q, %v", c.offered, got, ok, c.want, c.ok)
		}
	}
}

func TestDecide(t *testing.T) {
	s := Script{
		WantTools: []ToolCall{{Name: "Read", Args: map[string]any{"file_path": "/x"}}, {Name: "Bash"}},
		FinalText: "DONE",
	}
	offered := []string{"awf_Bash", "awf_Read"}
	cases := []struct {
		name      string
		turn      turn
		wantTool  string
		wantFinal bool
		wantText  string // substring
	}{
		{name: "first call", turn: turn{offered: offered}, wantTool: "awf_Read"},
		{name: "second call after first result", turn: turn{offered: offered, called: []string{"awf_Read"}, results: []string{"R1"}}, wantTool: "awf_Bash"},
		{name: "final after all results", turn: turn{offered: offered, called: []string{"awf_Read", "awf_Bash"}, results: []string{"R1", "MARK\nline2"}},
			wantFinal: true, wantText: "DONE\n\nTool result 1:\n> R1\n\n\nTool result 2:\n> MARK\n> line2\n"},
		{name: "refused call still advances", turn: turn{offered: offered, called: []string{"awf_Read", "awf_Bash"}, results: []string{"R1", "denied"}}, wantFinal: true, wantText: "> denied"},
		{name: "next tool not offered ends", turn: turn{offered: []string{"awf_Read"}, called: []string{"awf_Read"}, results: []string{"R1"}}, wantFinal: true, wantText: "> R1"},
		{name: "side request without tools", turn: turn{}, wantText: "none of the wanted tools [Read Bash] is offered"},
		{name: "side request wanting JSON", turn: turn{wantsJSON: true, jsonSchema: map[string]any{"type": "object",
			"properties": map[string]any{"next_speaker": map[string]any{"type": "string", "enum": []any{"user", "model"}}}}}, wantText: `{"next_speaker":"user"}`},
		{name: "unrelated results end with final text", turn: turn{offered: nil, called: []string{"other"}, results: []string{"X"}}, wantFinal: true, wantText: "> X"},
		{name: "history but wanted tool offered again calls it", turn: turn{offered: offered, called: []string{"other"}, results: []string{"X"}}, wantTool: "awf_Read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.decide(c.turn)
			if r.tool != c.wantTool {
				t.Fatalf("tool = %q, want %q (reply %+v)", r.tool, c.wantTool, r)
			}
			if c.wantTool != "" {
				return
			}
			if r.final != c.wantFinal {
				t.Errorf("final = %v, want %v", r.final, c.wantFinal)
			}
			if !strings.Contains(r.text, c.wantText) {
				t.Errorf("text = %q, want it to contain %q", r.text, c.wantText)
			}
		})
	}
}

func TestJSONExample(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		want   string
	}{
		{"nil", `null`, `{}`},
		{"gemini classifier", `{"type":"OBJECT","properties":{"complexity_reasoning":{"type":"STRING"},"complexity_score":{"type":"INTEGER"}},"required":["complexity_reasoning","complexity_score"]}`,
			`{"complexity_reasoning":"ok","complexity_score":1}`},
		{"minimum honoured", `{"type":"object","properties":{"n":{"type":"number","minimum":5}}}`, `{"n":5}`},
		{"only required", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"boolean"}},"required":["b"]}`, `{"b":false}`},
		{"array and nullable type list", `{"type":"object","properties":{"a":{"type":"array"},"b":{"type":["null","string"]}}}`, `{"a":[],"b":null}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var schema map[string]any
			if err := json.Unmarshal([]byte(c.schema), &schema); err != nil {
				t.Fatal(err)
			}
			if got := jsonExample(schema); got != c.want {
				t.Errorf("jsonExample = %s, want %s", got, c.want)
			}
		})
	}
}

func TestStringLeaves(t *testing.T) {
	var v any
	_ = json.Unmarshal([]byte(`{"output":"a","content":[{"type":"text","text":"b"}],"n":3}`), &v)
	if got := stringLeaves(v); got != "b\na" {
		t.Errorf("stringLeaves = %q, want %q (sorted keys, type skipped, numbers ignored)", got, "b\na")
	}
}

func TestResolveForced(t *testing.T) {
	cases := []struct {
		name    string
		call    ToolCall
		offered []string
		want    string
		ok      bool
	}{
		{"offered wins", ToolCall{Name: "Bash", Force: true}, []string{"mcp__awf__Bash"}, "mcp__awf__Bash", true},
		{"claude prefix borrowed", ToolCall{Name: "Bash", Force: true}, []string{"mcp__awf__Glob", "mcp__awf__Read"}, "mcp__awf__Bash", true},
		{"codex namespace borrowed", ToolCall{Name: "Bash", Force: true}, []string{"request_user_input", "mcp__awf/Read"}, "mcp__awf/Bash", true},
		{"gemini prefix borrowed", ToolCall{Name: "Bash", Force: true}, []string{"mcp_awf_Grep"}, "mcp_awf_Bash", true},
		{"built-in bare names are no anchor", ToolCall{Name: "Bash", Force: true}, []string{"Read", "awf_Read"}, "awf_Bash", true},
		{"no awf tool offered", ToolCall{Name: "Bash", Force: true}, []string{"request_user_input"}, "", false},
		{"not forced", ToolCall{Name: "Bash"}, []string{"mcp__awf__Read"}, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := c.call.resolve(c.offered)
			if got != c.want || ok != c.ok {
				t.Errorf("resolve = %q, %v; want %q, %v", got, ok, c.want, c.ok)
			}
		})
	}
}
