package openai

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// benchServer answers like a fast local model: a tool call when the conversation has no tool
// result yet, then a 40-piece text answer. Both bodies are rendered once, so the benchmarks
// measure the client side.
func benchServer(b *testing.B) *httptest.Server {
	b.Helper()
	var call, final strings.Builder
	for _, e := range []string{toolChunk(0, "c1", "Read", `{"file_path":`), toolChunk(0, "", "", `"README.md"}`), finishChunk("tool_calls"), usageChunk(500, 20)} {
		fmt.Fprintf(&call, "data: %s\n\n", e)
	}
	call.WriteString("data: [DONE]\n\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&final, "data: %s\n\n", contentChunk(fmt.Sprintf("word%d ", i)))
	}
	fmt.Fprintf(&final, "data: %s\n\ndata: %s\n\ndata: [DONE]\n\n", finishChunk("stop"), usageChunk(600, 40))
	callBody, finalBody := []byte(call.String()), []byte(final.String())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		if bytes.Contains(body, []byte(`"role":"tool"`)) {
			_, _ = w.Write(finalBody)
			return
		}
		_, _ = w.Write(callBody)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkRunTwoTurns is one step of two turns (a tool call, then the answer) through the
// provider, with an instant tool. Compare with BenchmarkRawTwoRoundTrips: the difference over
// two is awf's per-turn overhead (request encoding, SSE parsing, assembly, span, log line).
func BenchmarkRunTwoTurns(b *testing.B) {
	srv := benchServer(b)
	p := New(nil, nil, nil, WithGetenv(func(string) string { return "" }))
	sess := newSession("Read", "Grep", "Glob")
	req := stepRequestURL(srv.URL+"/v1", sess)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Run(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawTwoRoundTrips is the floor: the same two POSTs with prepared bodies, each answer
// read to the end and thrown away.
func BenchmarkRawTwoRoundTrips(b *testing.B) {
	srv := benchServer(b)
	first := []byte(`{"model":"m","stream":true,"messages":[{"role":"user","content":"do the thing"}]}`)
	second := []byte(`{"model":"m","stream":true,"messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"c1","content":"r"}]}`)
	client := &http.Client{}
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range [][]byte{first, second} {
			resp, err := client.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
	}
}

func stepRequestURL(base string, sess *fakeSession) ports.AgentRequest {
	return ports.AgentRequest{RunID: "r", Step: "s", Prompt: "do the thing", Tools: sess,
		Options: map[string]any{"base_url": base, "model": "m"}}
}
