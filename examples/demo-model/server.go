package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"time"
)

// modelName is what /v1/models lists. Requests naming any model are answered: the script is the
// same whatever the name.
const modelName = "awf-demo"

// maxRequestBytes bounds a request body; a conversation of the script is a few KiB.
const maxRequestBytes = 8 << 20

// argumentPiece is how many bytes of a tool call's arguments go into one stream event. Small
// pieces make the client assemble each call from several deltas, as real servers do.
const argumentPiece = 12

// server answers the chat-completions API with the script's next message.
type server struct {
	log *log.Logger
	now func() time.Time
}

func newHandler(logger *log.Logger) http.Handler {
	s := &server{log: logger, now: time.Now}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", s.chat)
	mux.HandleFunc("/v1/models", s.models)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, apiError(fmt.Sprintf("no route %s %s; this scripted demo serves POST /v1/chat/completions and GET /v1/models", r.Method, r.URL.Path), "invalid_request_error"))
	})
	return mux
}

func (s *server) models(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		writeJSON(w, http.StatusMethodNotAllowed, apiError("use GET", "invalid_request_error"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []map[string]any{
		{"id": modelName, "object": "model", "created": 0, "owned_by": "awf (scripted demo, not a language model)"},
	}})
}

func (s *server) chat(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusMethodNotAllowed, apiError("use POST", "invalid_request_error"))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes+1))
	if err != nil || len(body) > maxRequestBytes {
		writeJSON(w, http.StatusBadRequest, apiError("cannot read the request body (at most 8 MiB)", "invalid_request_error"))
		return
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, apiError("the request body is not a chat completion request: "+err.Error(), "invalid_request_error"))
		return
	}
	if len(req.Messages) == 0 {
		writeJSON(w, http.StatusBadRequest, apiError("messages is empty", "invalid_request_error"))
		return
	}
	model := req.Model
	if model == "" {
		model = modelName
	}
	rep := next(req)
	s.log.Printf("turn: %d message(s), %d tool(s) offered → %s", len(req.Messages), len(req.Tools), describe(rep))
	usage := map[string]int{"prompt_tokens": len(body) / 4, "completion_tokens": completionTokens(rep)}
	usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
	id := fmt.Sprintf("chatcmpl-demo-%d", s.now().UnixNano())
	if req.Stream {
		s.stream(w, id, model, rep, usage, req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": id, "object": "chat.completion", "created": s.now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "message": assistantMessage(rep), "finish_reason": finishReason(rep)}},
		"usage":   usage,
	})
}

// stream writes the reply as chat.completion.chunk events: the role, the text in word-sized
// pieces or each tool call's id and name followed by its arguments in small pieces, the finish
// reason, the usage when asked for, then [DONE].
func (s *server) stream(w http.ResponseWriter, id, model string, rep reply, usage map[string]int, includeUsage bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	created := s.now().Unix()
	send := func(choices []any, extra map[string]any) {
		ev := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model, "choices": choices}
		for k, v := range extra {
			ev[k] = v
		}
		b, _ := json.Marshal(ev)
		_, _ = fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	delta := func(d map[string]any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": nil}}
	}
	send(delta(map[string]any{"role": "assistant", "content": ""}), nil)
	for _, word := range splitWords(rep.text) {
		send(delta(map[string]any{"content": word}), nil)
	}
	for i, c := range rep.calls {
		send(delta(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": c.id, "type": "function", "function": map[string]any{"name": c.name, "arguments": ""}}}}), nil)
		args, _ := json.Marshal(c.args)
		for _, piece := range pieces(string(args), argumentPiece) {
			send(delta(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": piece}}}}), nil)
		}
	}
	send([]any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finishReason(rep)}}, nil)
	if includeUsage {
		send([]any{}, map[string]any{"usage": usage})
	}
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

func assistantMessage(rep reply) map[string]any {
	m := map[string]any{"role": "assistant", "content": rep.text}
	if len(rep.calls) > 0 {
		m["content"] = nil
		var calls []any
		for _, c := range rep.calls {
			args, _ := json.Marshal(c.args)
			calls = append(calls, map[string]any{"id": c.id, "type": "function",
				"function": map[string]any{"name": c.name, "arguments": string(args)}})
		}
		m["tool_calls"] = calls
	}
	return m
}

func finishReason(rep reply) string {
	if len(rep.calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// completionTokens is a rough count (4 bytes a token): the demo has no tokenizer, and says so in
// its doc comment.
func completionTokens(rep reply) int {
	n := len(rep.text)
	for _, c := range rep.calls {
		args, _ := json.Marshal(c.args)
		n += len(c.name) + len(args)
	}
	return max(n/4, 1)
}

func describe(rep reply) string {
	if len(rep.calls) == 0 {
		return "final answer"
	}
	names := make([]string, 0, len(rep.calls))
	for _, c := range rep.calls {
		names = append(names, c.name)
	}
	return "tool calls " + strings.Join(names, ", ")
}

// splitWords cuts text after each space, keeping the spaces, so the pieces join back exactly.
func splitWords(text string) []string {
	var out []string
	for text != "" {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

// pieces cuts s into chunks of about n bytes without splitting a UTF-8 character.
func pieces(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut < len(s) && !isRuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
