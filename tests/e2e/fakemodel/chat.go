package fakemodel

import (
	"encoding/json"
	"net/http"
	"time"
)

// chatRequest is the part of a Chat Completions request the fake reads.
type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		ToolCalls []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

func parseChat(body []byte, _ *http.Request) (turn, meta, error) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return turn{}, meta{}, err
	}
	var t turn
	for _, tl := range req.Tools {
		name := tl.Function.Name
		if name == "" {
			name = tl.Type
		}
		t.offered = append(t.offered, name)
	}
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			t.called = append(t.called, tc.Function.Name)
		}
		if m.Role == "tool" {
			t.results = append(t.results, rawText(m.Content))
		}
	}
	if rf := req.ResponseFormat; rf != nil && (rf.Type == "json_schema" || rf.Type == "json_object") {
		t.wantsJSON = true
		if rf.JSONSchema != nil {
			t.jsonSchema = rf.JSONSchema.Schema
		}
	}
	return t, meta{model: req.Model, stream: req.Stream}, nil
}

func writeChat(f *Server, w http.ResponseWriter, rep reply, m meta) {
	id := f.nextID("chatcmpl")
	created := time.Now().Unix()
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	finish := "stop"
	message := map[string]any{"role": "assistant"}
	if rep.kind == replyTool {
		args, _ := marshalCompact(nonNil(rep.args))
		finish = "tool_calls"
		message["content"] = nil
		message["tool_calls"] = []any{map[string]any{"index": 0, "id": f.nextID("call"), "type": "function",
			"function": map[string]any{"name": rep.tool, "arguments": string(args)}}}
	} else {
		message["content"] = rep.text
	}
	if !m.stream {
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "chat.completion", "created": created, "model": m.model,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
		return
	}
	chunk := func(delta map[string]any, finish any, usage any) map[string]any {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": m.model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		return c
	}
	s := startSSE(w)
	s.event("", chunk(message, nil, nil))
	s.event("", chunk(map[string]any{}, finish, usage))
	s.raw("", "[DONE]")
}
