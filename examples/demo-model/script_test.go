package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// convo builds a request offering tools, with the given tool results already in the history.
func convo(tools []string, results map[string]string) chatRequest {
	var req chatRequest
	for _, name := range tools {
		var t struct {
			Type     string `json:"type"`
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		t.Type, t.Function.Name = "function", name
		t.Function.Parameters = json.RawMessage(`{"type":"object","properties":{"key":{},"text":{}}}`)
		req.Tools = append(req.Tools, t)
	}
	req.Messages = append(req.Messages, message{Role: "user", Content: json.RawMessage(`"go"`)})
	for id, text := range results {
		b, _ := json.Marshal(text)
		req.Messages = append(req.Messages, message{Role: "tool", ToolCallID: id, Content: b})
	}
	return req
}

func callsOf(r reply) string {
	var parts []string
	for _, c := range r.calls {
		b, _ := json.Marshal(c.args)
		parts = append(parts, fmt.Sprintf("%s:%s%s", c.id, c.name, b))
	}
	return strings.Join(parts, " ")
}

func TestScriptSteps(t *testing.T) {
	direct := []string{"Read", "Write", "Edit", "Glob", "Grep", "notes_get", "notes_put", "notes_list"}
	split := []string{"retrieve_tools", "call_tool_read", "call_tool_write"}
	phase1 := map[string]string{idRead: "     1\t# awf", idGrep: "README.md"}
	tests := []struct {
		name    string
		tools   []string
		results map[string]string
		want    string
	}{
		{"direct, first turn: Read and Grep in parallel", direct, nil,
			`demo_read:Read{"file_path":"README.md","limit":5} demo_grep:Grep{"head_limit":5,"output_mode":"files_with_matches","pattern":"awf"}`},
		{"direct, Bash asked for although not offered", direct, phase1,
			`demo_bash:Bash{"command":"rm -rf /tmp/awf-demo-should-not-run","description":"deliberately destructive demo call"}`},
		{"direct, notes_put after the refusal", direct, merge(phase1, map[string]string{idBash: "ERROR: refused"}),
			`demo_notes_put:notes_put{"key":"awf-demo/quickstart","text":"Written by awf's scripted demo model through the notes plugin."}`},
		{"direct, notes_get after put", direct, merge(phase1, map[string]string{idBash: "ERROR: refused", idNotesPut: "created"}),
			`demo_notes_get:notes_get{"key":"awf-demo/quickstart"}`},
		{"without notes: straight to the answer", []string{"Read", "Grep"}, merge(phase1, map[string]string{idBash: "ERROR: refused"}), ""},
		{"plugin tools only: no Read or Grep, Bash then notes", []string{"notes_put", "notes_get"}, nil,
			`demo_bash:Bash{"command":"rm -rf /tmp/awf-demo-should-not-run","description":"deliberately destructive demo call"}`},
		{"split, first turn", split, nil,
			`demo_read:call_tool_read{"args":{"file_path":"README.md","limit":5},"name":"Read"} ` +
				`demo_grep:call_tool_read{"args":{"head_limit":5,"output_mode":"files_with_matches","pattern":"awf"},"name":"Grep"} ` +
				`demo_retrieve_tools:retrieve_tools{"limit":10,"query":"notes"}`},
		{"split, Bash through call_tool_destructive", split, phase1,
			`demo_bash:call_tool_destructive{"args":{"command":"rm -rf /tmp/awf-demo-should-not-run","description":"deliberately destructive demo call"},"name":"Bash"}`},
		{"split, notes found by retrieve_tools", split, merge(phase1, map[string]string{idDiscover: `[{"name":"notes_put"},{"name":"notes_get"}]`, idBash: "ERROR: no"}),
			`demo_notes_put:call_tool_write{"args":{"key":"awf-demo/quickstart","text":"Written by awf's scripted demo model through the notes plugin."},"name":"notes_put"}`},
		{"split, notes not found", split, merge(phase1, map[string]string{idDiscover: `[]`, idBash: "ERROR: no"}), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := next(convo(tc.tools, tc.results))
			if got := callsOf(r); got != tc.want {
				t.Errorf("calls = %s\nwant    %s", got, tc.want)
			}
			if tc.want == "" && !strings.HasPrefix(r.text, honestPreface) {
				t.Errorf("final text %q does not open by saying it is scripted", r.text)
			}
		})
	}
}

func TestScriptWithoutToolsAnswersHonestly(t *testing.T) {
	r := next(convo(nil, nil))
	if len(r.calls) != 0 || !strings.Contains(r.text, "no language model was involved") || !strings.Contains(r.text, "No tools were offered") {
		t.Errorf("reply = %+v", r)
	}
}

func TestSummaryQuotesEachResult(t *testing.T) {
	refusal := "Tool 'Bash' is not allowed in this step: its variant destructive is not in allow [read, write]"
	r := next(convo([]string{"Read", "Grep", "notes_put", "notes_get"}, map[string]string{
		idRead:     "     1\t# awf\n     2\t\n     3\tawf runs YAML workflows",
		idGrep:     "README.md\nMakefile\ncmd/awf/main.go",
		idBash:     "ERROR: " + refusal,
		idNotesPut: `created note "awf-demo/quickstart"`,
		idNotesGet: "ERROR: note not found",
	}))
	for _, want := range []string{
		honestPreface,
		`- Read README.md: first line "# awf"`,
		`- Grep "awf": "README.md" and 2 more line(s)`,
		"- Bash `rm -rf /tmp/awf-demo-should-not-run`: refused or failed: \"" + refusal + "\"",
		`- notes_put awf-demo/quickstart: "created note \"awf-demo/quickstart\""`,
		`- notes_get awf-demo/quickstart: refused or failed: "note not found"`,
	} {
		if !strings.Contains(r.text, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.text)
		}
	}
}

func TestTextFieldFollowsTheSchema(t *testing.T) {
	for schema, want := range map[string]string{
		`{"properties":{"key":{},"text":{}}}`:  "text",
		`{"properties":{"key":{},"value":{}}}`: "value",
		`{"properties":{}}`:                    "text",
		`not json`:                             "text",
	} {
		if got := textField(json.RawMessage(schema)); got != want {
			t.Errorf("textField(%s) = %s, want %s", schema, got, want)
		}
	}
}

func TestMessageTextForms(t *testing.T) {
	for raw, want := range map[string]string{
		`"plain"`: "plain",
		`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`: "ab",
		`null`: "",
	} {
		if got := (message{Content: json.RawMessage(raw)}).text(); got != want {
			t.Errorf("text(%s) = %q, want %q", raw, got, want)
		}
	}
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
