package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func newTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(newHandler(log.New(io.Discard, "", 0)))
	t.Cleanup(srv.Close)
	return srv
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

const firstTurn = `{"model":"awf-demo","stream":%s,"stream_options":{"include_usage":true},
 "messages":[{"role":"user","content":"show me"}],
 "tools":[{"type":"function","function":{"name":"Read","parameters":{}}},{"type":"function","function":{"name":"Grep","parameters":{}}}]}`

func TestStreamingAnswer(t *testing.T) {
	srv := newTestServer(t)
	resp := post(t, srv.URL+"/v1/chat/completions", strings.Replace(firstTurn, "%s", "true", 1))
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var events []map[string]any
	done := false
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("not an SSE data line: %q", line)
		}
		if data == "[DONE]" {
			done = true
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		events = append(events, ev)
	}
	if !done {
		t.Fatal("no [DONE]")
	}
	// Reassemble the calls the way a client does and check each came in several pieces.
	args := map[float64]string{}
	pieces := map[float64]int{}
	ids := map[float64]string{}
	var finish string
	for _, ev := range events {
		for _, c := range ev["choices"].([]any) {
			ch := c.(map[string]any)
			if fr, ok := ch["finish_reason"].(string); ok {
				finish = fr
			}
			d, _ := ch["delta"].(map[string]any)
			tcs, _ := d["tool_calls"].([]any)
			for _, tc := range tcs {
				m := tc.(map[string]any)
				idx := m["index"].(float64)
				if id, ok := m["id"].(string); ok {
					ids[idx] = id
				}
				args[idx] += m["function"].(map[string]any)["arguments"].(string)
				pieces[idx]++
			}
		}
	}
	if finish != "tool_calls" || ids[0] != idRead || ids[1] != idGrep {
		t.Fatalf("finish %q ids %v", finish, ids)
	}
	if args[0] != `{"file_path":"README.md","limit":5}` || pieces[0] < 3 {
		t.Errorf("Read arguments %q in %d pieces, want the whole JSON over several", args[0], pieces[0])
	}
	last := events[len(events)-1]
	u, _ := last["usage"].(map[string]any)
	if u == nil || u["prompt_tokens"].(float64) <= 0 || len(last["choices"].([]any)) != 0 {
		t.Errorf("last event %v, want a usage chunk with no choices", last)
	}
}

func TestNonStreamingAnswer(t *testing.T) {
	srv := newTestServer(t)
	resp := post(t, srv.URL+"/v1/chat/completions", strings.Replace(firstTurn, "%s", "false", 1))
	var out struct {
		Object  string `json:"object"`
		Choices []struct {
			Message struct {
				Content   *string    `json:"content"`
				ToolCalls []toolCall `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage map[string]int `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Object != "chat.completion" || len(out.Choices) != 1 || out.Choices[0].FinishReason != "tool_calls" ||
		len(out.Choices[0].Message.ToolCalls) != 2 || out.Choices[0].Message.ToolCalls[1].Function.Name != "Grep" || out.Usage["total_tokens"] == 0 {
		t.Errorf("answer = %+v", out)
	}
}

func TestRequestErrors(t *testing.T) {
	srv := newTestServer(t)
	tests := []struct {
		method, path, body string
		status             int
		mentions           string
	}{
		{"POST", "/v1/chat/completions", "{not json", 400, "not a chat completion request"},
		{"POST", "/v1/chat/completions", `{"messages":[]}`, 400, "messages is empty"},
		{"GET", "/v1/chat/completions", "", 405, "use POST"},
		{"GET", "/v2/other", "", 404, "scripted demo"},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.mentions) || !strings.Contains(string(b), `"error"`) {
			t.Errorf("%s %s = %d %s, want %d with an error object mentioning %q", tc.method, tc.path, resp.StatusCode, b, tc.status, tc.mentions)
		}
	}
}

func TestModelsList(t *testing.T) {
	srv := newTestServer(t)
	resp, err := http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"id":"awf-demo"`) || !strings.Contains(string(b), "not a language model") {
		t.Errorf("models = %d %s", resp.StatusCode, b)
	}
}

func TestRunPrintsTheURLFirstAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() { errc <- run(ctx, []string{"--addr", "127.0.0.1:0", "--quiet"}, pw, io.Discard) }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/v1") {
		t.Fatalf("first line %q", line)
	}
	resp, err := http.Get(url + "/models")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET models = %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("run = %v, want a clean stop", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop")
	}
}

func TestRunRejectsABadAddress(t *testing.T) {
	err := run(context.Background(), []string{"--addr", "256.0.0.1:bad"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cannot listen on 256.0.0.1:bad") {
		t.Errorf("err = %v", err)
	}
}

func TestPiecesKeepCharactersWhole(t *testing.T) {
	s := `{"k":"ééééééééé€€€"}`
	ps := pieces(s, 3)
	if strings.Join(ps, "") != s || len(ps) < 4 {
		t.Fatalf("pieces = %q", ps)
	}
	for _, p := range ps {
		if !strings.HasPrefix(p, "{") && !isRuneStart(p[0]) {
			t.Errorf("piece %q starts inside a character", p)
		}
	}
	if got := strings.Join(splitWords("a b  c "), ""); got != "a b  c " {
		t.Errorf("splitWords does not join back: %q", got)
	}
}
