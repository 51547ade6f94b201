package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// fakeSession is a ToolSession that records calls and answers from a table.
type fakeSession struct {
	mu      sync.Mutex
	defs    []tool.Definition
	results map[string]tool.Result
	calls   []sessionCall
}

type sessionCall struct {
	name string
	args string
}

func newSession(names ...string) *fakeSession {
	s := &fakeSession{results: map[string]tool.Result{}}
	for _, n := range names {
		s.defs = append(s.defs, tool.Definition{Name: n, Description: "the " + n + " tool",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)})
	}
	return s
}

func (s *fakeSession) ListTools() []tool.Definition { return s.defs }

func (s *fakeSession) CallTool(_ context.Context, name string, args json.RawMessage) tool.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, sessionCall{name: name, args: string(args)})
	if r, ok := s.results[name]; ok {
		return r
	}
	return tool.Text("result of " + name + " " + string(args))
}

func (s *fakeSession) recorded() []sessionCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sessionCall(nil), s.calls...)
}

// recordedRequest is what the fake model server received.
type recordedRequest struct {
	Header http.Header
	Body   map[string]any
	Raw    string
}

// messages returns the request's messages as generic maps.
func (r recordedRequest) messages() []map[string]any {
	var out []map[string]any
	for _, m := range r.Body["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

// modelServer is an httptest server answering each request with the next scripted reply; the
// last reply repeats when the script runs out.
type modelServer struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []http.HandlerFunc
	requests []recordedRequest
}

func newModelServer(t *testing.T, replies ...http.HandlerFunc) *modelServer {
	t.Helper()
	ms := &modelServer{replies: replies}
	ms.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.Error(w, "no route", http.StatusNotFound)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("request body is not JSON: %v", err)
		}
		ms.mu.Lock()
		n := len(ms.requests)
		ms.requests = append(ms.requests, recordedRequest{Header: r.Header.Clone(), Body: body, Raw: string(raw)})
		reply := ms.replies[min(n, len(ms.replies)-1)]
		ms.mu.Unlock()
		reply(w, r)
	}))
	t.Cleanup(ms.Close)
	return ms
}

func (ms *modelServer) base() string { return ms.URL + "/v1" }

func (ms *modelServer) got() []recordedRequest {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]recordedRequest(nil), ms.requests...)
}

// sse replies with the given events as a server-sent-events stream, then [DONE].
func sse(events ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range events {
			_, _ = fmt.Fprintf(w, "data: %s\n\n", e)
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}
}

// raw replies with a fixed status, content type and body.
func raw(status int, contentType, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// hang waits until the client goes away (or a safety limit), sending nothing.
func hang(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	waitForClient(r)
}

// waitForClient blocks until the client goes away, or a safety limit.
func waitForClient(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// Chunk builders. They write the JSON by hand where the test is about the exact wire shape.

func contentChunk(s string) string {
	b, _ := json.Marshal(s)
	return `{"choices":[{"index":0,"delta":{"content":` + string(b) + `}}]}`
}

func toolChunk(idx int, id, name, args string) string {
	b, _ := json.Marshal(args)
	fn := `"arguments":` + string(b)
	if name != "" {
		fn = `"name":"` + name + `",` + fn
	}
	idPart := ""
	if id != "" {
		idPart = `"id":"` + id + `","type":"function",`
	}
	return fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,%s"function":{%s}}]}}]}`, idx, idPart, fn)
}

func finishChunk(reason string) string {
	return `{"choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}`
}

func usageChunk(prompt, completion int) string {
	return fmt.Sprintf(`{"choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`, prompt, completion, prompt+completion)
}

// answer is a final text answer as a stream.
func answer(text string) http.HandlerFunc {
	return sse(contentChunk(text), finishChunk("stop"), usageChunk(10, 5))
}

// splitEvery cuts s into pieces of n characters (servers split on tokens, never inside a rune).
func splitEvery(s string, n int) []string {
	var out []string
	r := []rune(s)
	for len(r) > n {
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return append(out, string(r))
}

// testProvider is a provider with fast retries and a fixed environment.
func testProvider(env map[string]string, opts ...Option) *Provider {
	all := append([]Option{
		WithGetenv(func(k string) string { return env[k] }),
		WithRetryPolicy(RetryPolicy{Attempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Second}),
	}, opts...)
	return New(nil, nil, nil, all...)
}

// stepRequest is an agent request against ms with the given tools and extra options.
func stepRequest(ms *modelServer, tools ports.ToolSession, opts map[string]any) ports.AgentRequest {
	o := map[string]any{"base_url": ms.base(), "model": "test-model"}
	for k, v := range opts {
		o[k] = v
	}
	return ports.AgentRequest{RunID: "run1", Step: "agent", Provider: Name, Prompt: "do the thing", Options: o, Tools: tools}
}
