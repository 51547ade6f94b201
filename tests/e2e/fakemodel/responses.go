package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// responsesRequest is the part of an OpenAI Responses request the fake reads.
type responsesRequest struct {
	Model  string            `json:"model"`
	Stream bool              `json:"stream"`
	Input  json.RawMessage   `json:"input"`
	Tools  []json.RawMessage `json:"tools"`
	Text   *struct {
		Format *struct {
			Type   string         `json:"type"`
			Schema map[string]any `json:"schema"`
		} `json:"format"`
	} `json:"text"`
}

// responsesTool is one entry of "tools": a function, a built-in (web_search, …) or a namespace
// grouping functions (codex puts each MCP server's tools in one).
type responsesTool struct {
	Type  string          `json:"type"`
	Name  string          `json:"name"`
	Tools []responsesTool `json:"tools"`
}

// responsesItem is one input item; only the fields the fake reads.
type responsesItem struct {
	Type      string          `json:"type"`
	Name      string          `json:"name"`
	Namespace string          `json:"namespace"`
	Output    json.RawMessage `json:"output"`
}

func parseResponses(body []byte, _ *http.Request) (turn, meta, error) {
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return turn{}, meta{}, err
	}
	var t turn
	for _, raw := range req.Tools {
		var tl responsesTool
		if json.Unmarshal(raw, &tl) != nil {
			continue
		}
		t.offered = append(t.offered, responsesToolNames(tl)...)
	}
	var items []responsesItem
	_ = json.Unmarshal(req.Input, &items) // a plain string input has no history
	for _, it := range items {
		switch {
		case strings.HasSuffix(it.Type, "_call_output"):
			t.results = append(t.results, rawText(it.Output))
		case strings.HasSuffix(it.Type, "_call") && it.Name != "":
			name := it.Name
			if it.Namespace != "" {
				name = it.Namespace + "/" + it.Name
			}
			t.called = append(t.called, name)
		}
	}
	if req.Text != nil && req.Text.Format != nil && req.Text.Format.Type == "json_schema" {
		t.wantsJSON, t.jsonSchema = true, req.Text.Format.Schema
	}
	return t, meta{model: req.Model, stream: req.Stream}, nil
}

// responsesToolNames flattens a tool: a namespace yields "<namespace>/<tool>" per member.
func responsesToolNames(tl responsesTool) []string {
	if len(tl.Tools) > 0 {
		var out []string
		for _, sub := range tl.Tools {
			for _, n := range responsesToolNames(sub) {
				out = append(out, tl.Name+"/"+n)
			}
		}
		return out
	}
	if tl.Name != "" {
		return []string{tl.Name}
	}
	return []string{tl.Type}
}

func writeResponses(f *Server, w http.ResponseWriter, rep reply, m meta) {
	respID := f.nextID("resp")
	var item map[string]any
	if rep.kind == replyTool {
		args, _ := marshalCompact(nonNil(rep.args))
		item = map[string]any{"type": "function_call", "id": f.nextID("fc"), "call_id": f.nextID("call"),
			"arguments": string(args), "status": "completed"}
		if ns, name, ok := strings.Cut(rep.tool, "/"); ok {
			item["namespace"], item["name"] = ns, name
		} else {
			item["name"] = rep.tool
		}
	} else {
		item = map[string]any{"type": "message", "id": f.nextID("msg"), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": rep.text, "annotations": []any{}}}}
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	response := func(status string, output []any) map[string]any {
		r := map[string]any{"id": respID, "object": "response", "model": m.model, "status": status, "output": output}
		if status == "completed" {
			r["usage"] = usage
		}
		return r
	}
	if !m.stream {
		writeJSON(w, http.StatusOK, response("completed", []any{item}))
		return
	}
	s := startSSE(w)
	s.event("response.created", map[string]any{"type": "response.created", "sequence_number": 0, "response": response("in_progress", []any{})})
	s.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item})
	if rep.kind == replyText {
		s.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta", "sequence_number": 2,
			"item_id": item["id"], "output_index": 0, "content_index": 0, "delta": rep.text})
	}
	s.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "sequence_number": 3, "output_index": 0, "item": item})
	s.event("response.completed", map[string]any{"type": "response.completed", "sequence_number": 4, "response": response("completed", []any{item})})
}
