package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestReadAnswerShapes(t *testing.T) {
	tests := []struct {
		name    string
		ct      string
		body    string
		content string
		calls   []ToolCall
		finish  string
	}{
		{"CRLF, comments and other fields", "text/event-stream",
			": keep-alive\r\nevent: message\r\nid: 1\r\nretry: 100\r\ndata: " + contentChunk("a") + "\r\n\r\ndata:" + contentChunk("b") + "\r\n\r\ndata: [DONE]\r\n\r\n",
			"ab", nil, ""},
		{"no blank lines between events", "text/event-stream",
			"data: " + contentChunk("x") + "\ndata: " + contentChunk("y") + "\ndata: " + finishChunk("stop") + "\n",
			"xy", nil, "stop"},
		{"one event over two data lines", "text/event-stream",
			"data: {\"choices\":[{\"index\":0,\ndata: \"delta\":{\"content\":\"z\"},\"finish_reason\":\"stop\"}]}\n\n",
			"z", nil, "stop"},
		{"no [DONE] but finished", "text/event-stream", "data: " + contentChunk("q") + "\n\ndata: " + finishChunk("length") + "\n\n", "q", nil, "length"},
		{"SSE labelled text/plain", "text/plain", "data: " + contentChunk("s") + "\n\ndata: [DONE]\n\n", "s", nil, ""},
		{"choice 1 ignored", "text/event-stream",
			"data: {\"choices\":[{\"index\":1,\"delta\":{\"content\":\"no\"}},{\"index\":0,\"delta\":{\"content\":\"yes\"}}]}\n\ndata: [DONE]\n\n", "yes", nil, ""},
		{"calls without index or id", "text/event-stream",
			"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"name\":\"Read\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}\n\n" +
				"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\":1}\"}}]}}]}\n\n" +
				"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"z\",\"function\":{\"name\":\"Grep\",\"arguments\":\"\"}}]}}]}\n\n" +
				"data: [DONE]\n\n",
			"", []ToolCall{
				{ID: "call_0", Type: "function", Function: FunctionCall{Name: "Read", Arguments: `{"a":1}`}},
				{ID: "z", Type: "function", Function: FunctionCall{Name: "Grep", Arguments: "{}"}},
			}, ""},
		{"name repeated on every piece, duplicate ids", "text/event-stream",
			"data: " + toolChunk(0, "dup", "Read", `{"x":`) + "\n\ndata: " + toolChunk(0, "dup", "Read", `1}`) + "\n\n" +
				"data: " + toolChunk(1, "dup", "Glob", `{}`) + "\n\ndata: " + finishChunk("tool_calls") + "\n\n",
			"", []ToolCall{
				{ID: "dup", Type: "function", Function: FunctionCall{Name: "Read", Arguments: `{"x":1}`}},
				{ID: "call_1", Type: "function", Function: FunctionCall{Name: "Glob", Arguments: `{}`}},
			}, "tool_calls"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			turn, err := readAnswer(strings.NewReader(tc.body), tc.ct)
			if err != nil {
				t.Fatal(err)
			}
			if turn.Content != tc.content || turn.FinishReason != tc.finish {
				t.Errorf("content %q finish %q, want %q %q", turn.Content, turn.FinishReason, tc.content, tc.finish)
			}
			if fmt.Sprint(turn.ToolCalls) != fmt.Sprint(tc.calls) {
				t.Errorf("calls = %+v\nwant    %+v", turn.ToolCalls, tc.calls)
			}
		})
	}
}

func TestReadAnswerLimits(t *testing.T) {
	var b strings.Builder
	for i := 0; i <= maxToolCallsPerTurn; i++ {
		fmt.Fprintf(&b, "data: %s\n\n", toolChunk(i, fmt.Sprint("c", i), "Read", "{}"))
	}
	_, err := readAnswer(strings.NewReader(b.String()), "text/event-stream")
	var me *malformedError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "more than 256 tool calls") {
		t.Errorf("err = %v, want the tool-call cap", err)
	}
	long := "data: " + strings.Repeat("x", maxLineBytes+10) + "\n\n"
	if _, err := readAnswer(strings.NewReader(long), "text/event-stream"); !errors.As(err, &me) || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("err = %v, want the line cap", err)
	}
}

// FuzzAssemble feeds arbitrary bytes to the SSE reader and assembler (they must never panic, and
// what they return must be well formed), then checks the core property: arguments cut at any
// points and streamed as deltas come back exactly.
func FuzzAssemble(f *testing.F) {
	f.Add([]byte("data: "+toolChunk(0, "a", "Read", `{"x":1}`)+"\n\ndata: [DONE]\n\n"), `{"file_path":"README.md"}`, uint64(7))
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":{\"k\":2}}}]}}]}\ndata: [DONE]\n"), "", uint64(0))
	f.Add([]byte(": c\r\ndata: {\"error\":\"x\"}\r\n\r\n"), `{"ü":"€"}`, uint64(1<<40|3))
	f.Add([]byte("{\"choices\":[{\"message\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}"), "{}", uint64(99))
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":-1,\"id\":\"\"}]}}]}\n\n"), "a", uint64(5))
	f.Fuzz(func(t *testing.T, stream []byte, args string, cuts uint64) {
		for _, ct := range []string{"text/event-stream", "application/json", ""} {
			turn, err := readAnswer(strings.NewReader(string(stream)), ct)
			if err != nil {
				continue
			}
			checkTurn(t, turn)
		}

		if !utf8.ValidString(args) {
			return
		}
		pieces := cutAt([]rune(args), cuts)
		var b strings.Builder
		fmt.Fprintf(&b, "data: %s\n\n", toolChunk(0, "id0", "Tool", ""))
		for _, p := range pieces {
			fmt.Fprintf(&b, "data: %s\n\n", toolChunk(0, "", "", p))
			fmt.Fprintf(&b, "data: %s\n\n", toolChunk(1, "id1", "Other", p))
		}
		b.WriteString("data: [DONE]\n\n")
		turn, err := readAnswer(strings.NewReader(b.String()), "text/event-stream")
		if err != nil {
			t.Fatalf("well-formed stream rejected: %v", err)
		}
		want := args
		if strings.TrimSpace(want) == "" {
			want = "{}"
		}
		if len(turn.ToolCalls) != 2 || turn.ToolCalls[0].Function.Arguments != want || turn.ToolCalls[1].Function.Arguments != want ||
			turn.ToolCalls[0].ID != "id0" || turn.ToolCalls[1].Function.Name != "Other" {
			t.Fatalf("reassembled %+v, want both calls with arguments %q", turn.ToolCalls, want)
		}
	})
}

// checkTurn asserts what every assembled turn guarantees: unique non-empty ids, non-empty
// arguments, bounded size.
func checkTurn(t *testing.T, turn Turn) {
	t.Helper()
	ids := map[string]bool{}
	size := len(turn.Content)
	for _, c := range turn.ToolCalls {
		if c.ID == "" || ids[c.ID] {
			t.Fatalf("tool call id %q empty or repeated in %+v", c.ID, turn.ToolCalls)
		}
		ids[c.ID] = true
		if c.Function.Arguments == "" || c.Type != "function" {
			t.Fatalf("tool call %+v has no arguments or no type", c)
		}
		size += len(c.Function.Arguments) + len(c.Function.Name)
	}
	if len(turn.ToolCalls) > maxToolCallsPerTurn || size > maxTurnBytes+2*len(turn.ToolCalls) {
		t.Fatalf("turn over its limits: %d calls, %d bytes", len(turn.ToolCalls), size)
	}
	if _, err := json.Marshal(turn.ToolCalls); err != nil {
		t.Fatalf("tool calls cannot be sent back: %v", err)
	}
}

// cutAt splits r at the positions selected by the bits of cuts (bit i set: cut before rune i+1).
func cutAt(r []rune, cuts uint64) []string {
	var out []string
	start := 0
	for i := 1; i < len(r); i++ {
		if cuts&(1<<(uint(i-1)%64)) != 0 {
			out = append(out, string(r[start:i]))
			start = i
		}
	}
	return append(out, string(r[start:]))
}
