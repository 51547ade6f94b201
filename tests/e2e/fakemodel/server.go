package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Dialect names the model API a request used.
type Dialect string

// The four dialects, one per CLI family.
const (
	Anthropic Dialect = "anthropic-messages" // claude
	Responses Dialect = "openai-responses"   // codex
	Gemini    Dialect = "gemini"             // gemini
	Chat      Dialect = "openai-chat"        // opencode
)

// Request is one model request the fake answered, reduced to what tests assert on.
type Request struct {
	Dialect Dialect
	Path    string
	Model   string
	Stream  bool
	// OfferedTools are the tool names the CLI advertised, as spelled to the model. Tools nested
	// in a codex namespace tool appear as "<namespace>/<tool>", e.g. "mcp__awf/Read".
	OfferedTools []string
	// Called are the tool names the conversation history shows the model calling.
	Called []string
	// ToolResults are the texts of the tool results in the history (string leaves joined by
	// newlines for structured results).
	ToolResults []string
	// ReplyTool is the tool the fake called in its answer ("" for a text answer); ReplyText the
	// text it answered; Final marks the script's final answer.
	ReplyTool string
	ReplyText string
	Final     bool
	// Body is the raw request body, for debugging and for samples.
	Body []byte
}

// Server is a running fake model API. Its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL, e.g. http://127.0.0.1:PORT (no trailing slash, no /v1).
	URL string

	script  Script
	srv     *httptest.Server
	ids     atomic.Int64
	dumpDir string

	mu       sync.Mutex
	reqs     []Request
	side     []string
	outbound []string
}

// Start runs a fake for one test and closes it when the test ends.
func Start(t testing.TB, s Script) *Server {
	t.Helper()
	srv := New(s)
	t.Cleanup(srv.Close)
	return srv
}

// New runs a fake outside a test (see cmd/fakemodel); call Close when done. When the environment
// variable FAKEMODEL_DUMP_DIR names a directory, every request body and answer is written there,
// numbered, for studying what a CLI sends.
func New(s Script) *Server {
	f := &Server{script: s, dumpDir: os.Getenv("FAKEMODEL_DUMP_DIR")}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	f.URL = f.srv.URL
	return f
}

// Close stops the server and waits for in-flight requests.
func (f *Server) Close() { f.srv.Close() }

// Requests returns every model request seen, in arrival order.
func (f *Server) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.reqs...)
}

// OfferedTools returns, per model request, the tool names the CLI advertised to the model.
func (f *Server) OfferedTools() [][]string {
	var out [][]string
	for _, r := range f.Requests() {
		out = append(out, r.OfferedTools)
	}
	return out
}

// ToolResults returns the texts of every tool result the CLI sent back, deduplicated (each later
// request repeats the earlier results in its history).
func (f *Server) ToolResults() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range f.Requests() {
		for _, res := range r.ToolResults {
			if !seen[res] {
				seen[res] = true
				out = append(out, res)
			}
		}
	}
	return out
}

// SideRequests lists the requests that were not model requests ("GET /v1/models 200"), so a
// test can print what else a CLI asked for.
func (f *Server) SideRequests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.side...)
}

// OutboundAttempts lists the requests that reached the fake as an HTTP proxy ("CONNECT
// registry.npmjs.org:443"). A test that sets HTTPS_PROXY/HTTP_PROXY to [Server.URL] (and NO_PROXY
// to 127.0.0.1) sees here whatever a proxy-honouring CLI tried to send to the internet.
func (f *Server) OutboundAttempts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.outbound...)
}

// Summary renders every request in one line each, for test logs.
func (f *Server) Summary() string {
	var b strings.Builder
	for i, r := range f.Requests() {
		answer := fmt.Sprintf("text %q", clip(r.ReplyText, 60))
		if r.ReplyTool != "" {
			answer = "call " + r.ReplyTool
		} else if r.Final {
			answer = "final " + answer
		}
		fmt.Fprintf(&b, "#%d %s %s model=%s stream=%v tools=%d called=%v results=%d -> %s\n",
			i+1, r.Dialect, r.Path, r.Model, r.Stream, len(r.OfferedTools), r.Called, len(r.ToolResults), answer)
	}
	for _, s := range f.SideRequests() {
		fmt.Fprintf(&b, "side: %s\n", s)
	}
	for _, s := range f.OutboundAttempts() {
		fmt.Fprintf(&b, "OUTBOUND: %s\n", s)
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// nextID gives unique ids for tool calls and responses.
func (f *Server) nextID(prefix string) string {
	return fmt.Sprintf("%s_fake%04d", prefix, f.ids.Add(1))
}

// dialectHandler parses a request body into a turn and writes the reply in its dialect.
type dialectHandler struct {
	dialect Dialect
	parse   func(body []byte, r *http.Request) (turn, meta, error)
	write   func(f *Server, w http.ResponseWriter, rep reply, m meta)
}

// meta carries what the writer needs besides the reply.
type meta struct {
	model  string
	stream bool
}

func (f *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "reading body: "+err.Error(), http.StatusBadRequest)
		return
	}
	if r.Method == http.MethodConnect || r.URL.Host != "" {
		// The fake doubles as the CLI's HTTP(S)_PROXY: anything arriving here as a proxy
		// request was meant for the internet.
		f.mu.Lock()
		f.outbound = append(f.outbound, fmt.Sprintf("%s %s%s", r.Method, r.Host, r.URL.Path))
		f.mu.Unlock()
		http.Error(w, "fakemodel: outbound traffic refused", http.StatusForbidden)
		return
	}
	h, ok := route(r)
	if !ok {
		status := f.serveSide(w, r)
		f.mu.Lock()
		f.side = append(f.side, fmt.Sprintf("%s %s %d", r.Method, r.URL.Path, status))
		f.mu.Unlock()
		return
	}
	t, m, err := h.parse(body, r)
	if err != nil {
		f.mu.Lock()
		f.side = append(f.side, fmt.Sprintf("%s %s 400 (%v)", r.Method, r.URL.Path, err))
		f.mu.Unlock()
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "fakemodel: " + err.Error(), "type": "invalid_request_error"}})
		return
	}
	rep := f.script.decide(t)
	rec := Request{
		Dialect: h.dialect, Path: r.URL.Path, Model: m.model, Stream: m.stream,
		OfferedTools: t.offered, Called: t.called, ToolResults: t.results,
		ReplyTool: rep.tool, Final: rep.final, Body: body,
	}
	if rep.kind == replyText {
		rec.ReplyText = rep.text
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, rec)
	n := len(f.reqs)
	f.mu.Unlock()
	f.dump(n, h.dialect, body, rec)
	h.write(f, w, rep, m)
}

// route picks the dialect from the path; ok is false for side endpoints.
func route(r *http.Request) (dialectHandler, bool) {
	p := r.URL.Path
	if r.Method != http.MethodPost {
		return dialectHandler{}, false
	}
	switch {
	case strings.HasSuffix(p, "/messages"):
		return dialectHandler{Anthropic, parseAnthropic, writeAnthropic}, true
	case strings.HasSuffix(p, "/responses"):
		return dialectHandler{Responses, parseResponses, writeResponses}, true
	case strings.HasSuffix(p, "/chat/completions"):
		return dialectHandler{Chat, parseChat, writeChat}, true
	case strings.Contains(p, "/models/") && (strings.HasSuffix(p, ":generateContent") || strings.HasSuffix(p, ":streamGenerateContent")):
		return dialectHandler{Gemini, parseGemini, writeGemini}, true
	}
	return dialectHandler{}, false
}

// serveSide answers the endpoints CLIs hit besides the model call with harmless values and
// returns the status written.
func (f *Server) serveSide(w http.ResponseWriter, r *http.Request) int {
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/messages/count_tokens"):
		return writeJSON(w, http.StatusOK, map[string]any{"input_tokens": 1})
	case r.Method == http.MethodPost && strings.HasSuffix(p, ":countTokens"):
		return writeJSON(w, http.StatusOK, map[string]any{"totalTokens": 1})
	case r.Method == http.MethodGet && strings.HasPrefix(p, "/v1beta/models"):
		return writeJSON(w, http.StatusOK, map[string]any{"models": []any{map[string]any{
			"name": "models/fake-gemini", "displayName": "fake", "supportedGenerationMethods": []string{"generateContent", "countTokens"},
			"inputTokenLimit": 1048576, "outputTokenLimit": 65536,
		}}})
	case r.Method == http.MethodGet && strings.HasSuffix(p, "/models"):
		return writeJSON(w, http.StatusOK, map[string]any{
			"object": "list",
			"data":   []any{map[string]any{"id": "fake-model", "object": "model", "created": 0, "owned_by": "fakemodel"}},
			"models": []any{},
		})
	}
	return writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{
		"message": "fakemodel: no such endpoint " + r.Method + " " + p, "type": "not_found_error", "code": 404, "status": "NOT_FOUND",
	}})
}

func writeJSON(w http.ResponseWriter, status int, v any) int {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
	return status
}

// dump writes a request and the fake's decision to FAKEMODEL_DUMP_DIR when set.
func (f *Server) dump(n int, d Dialect, body []byte, rec Request) {
	if f.dumpDir == "" {
		return
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, body, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(body)
	}
	base := filepath.Join(f.dumpDir, fmt.Sprintf("%03d-%s", n, d))
	_ = os.WriteFile(base+".req.json", pretty.Bytes(), 0o600)
	rec.Body = nil
	b, _ := json.MarshalIndent(rec, "", "  ")
	_ = os.WriteFile(base+".decision.json", b, 0o600)
}

// marshalCompact is json.Marshal without HTML escaping, so quoted results stay readable.
func marshalCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// stringLeaves joins every string found in a decoded JSON value, depth first, one per line. It
// turns structured tool results ({"output": "..."} or content arrays) into searchable text.
func stringLeaves(v any) string {
	var parts []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			parts = append(parts, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, k := range sortedKeys(x) {
				if k == "type" {
					continue
				}
				walk(x[k])
			}
		}
	}
	walk(v)
	return strings.Join(parts, "\n")
}
