package fakemodel

import (
	"encoding/json"
	"net/http"
)

// anthropicRequest is the part of a Messages API request the fake reads.
type anthropicRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Tools  []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	OutputFormat *struct {
		Type   string         `json:"type"`
		Schema map[string]any `json:"schema"`
	} `json:"output_format"`
}

// anthropicBlock is one content block: text, tool_use or tool_result.
type anthropicBlock struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Name    string          `json:"name"`
	Content json.RawMessage `json:"content"`
}

func parseAnthropic(body []byte, _ *http.Request) (turn, meta, error) {
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return turn{}, meta{}, err
	}
	var t turn
	for _, tl := range req.Tools {
		name := tl.Name
		if name == "" {
			name = tl.Type
		}
		t.offered = append(t.offered, name)
	}
	for _, m := range req.Messages {
		var blocks []anthropicBlock
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // a plain string message
		}
		for _, b := range blocks {
			switch b.Type {
			case "tool_use", "server_tool_use", "mcp_tool_use":
				t.called = append(t.called, b.Name)
			case "tool_result", "mcp_tool_result":
				t.results = append(t.results, rawText(b.Content))
			}
		}
	}
	if req.OutputFormat != nil && req.OutputFormat.Type == "json_schema" {
		t.wantsJSON, t.jsonSchema = true, req.OutputFormat.Schema
	}
	return t, meta{model: req.Model, stream: req.Stream}, nil
}

// rawText turns a JSON string or a structure of content parts into text.
func rawText(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return stringLeaves(v)
}

func writeAnthropic(f *Server, w http.ResponseWriter, rep reply, m meta) {
	id := f.nextID("msg")
	var block map[string]any
	stop := "end_turn"
	if rep.kind == replyTool {
		block = map[string]any{"type": "tool_use", "id": f.nextID("toolu"), "name": rep.tool, "input": nonNil(rep.args)}
		stop = "tool_use"
	} else {
		block = map[string]any{"type": "text", "text": rep.text}
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !m.stream {
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": m.model,
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	s := startSSE(w)
	s.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": m.model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage,
	}})
	if rep.kind == replyTool {
		start := map[string]any{"type": "tool_use", "id": block["id"], "name": rep.tool, "input": map[string]any{}}
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": start})
		args, _ := marshalCompact(nonNil(rep.args))
		s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(args)}})
	} else {
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": rep.text}})
	}
	s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}

// nonNil keeps "input": {} rather than null for calls without arguments.
func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
