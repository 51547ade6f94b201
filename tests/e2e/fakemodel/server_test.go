package fakemodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// dialectScript is the script every dialect test runs: Read then a final answer.
var dialectScript = Script{
	WantTools: []ToolCall{{Name: "Read", Args: map[string]any{"file_path": "/w/a.txt"}}},
	FinalText: "FINAL",
}

// dialectCase is one dialect's request shapes, as the CLIs send them (trimmed from real dumps).
type dialectCase struct {
	dialect Dialect
	path    string
	// first offers the tools and carries only the prompt; second carries the call and its result
	// (holding MARK-123); side offers no tools.
	first, second, side string
	// toolCall extracts the called tool name and arguments from the answer to first.
	toolCall func(t *testing.T, body []byte) (string, map[string]any)
	// text extracts the answer text.
	text func(t *testing.T, body []byte) string
	// offered is what OfferedTools must record for first.
	offered []string
}

func dialectCases() []dialectCase {
	return []dialectCase{
		{
			dialect: Anthropic, path: "/v1/messages", offered: []string{"mcp__awf__Bash", "mcp__awf__Read"},
			first: `{"model":"claude-x","stream":true,"tools":[{"name":"mcp__awf__Bash"},{"name":"mcp__awf__Read"}],
				"messages":[{"role":"user","content":"read it"}]}`,
			second: `{"model":"claude-x","stream":true,"tools":[{"name":"mcp__awf__Read"}],"messages":[
				{"role":"user","content":"read it"},
				{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"mcp__awf__Read","input":{}}]},
				{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"     1\tMARK-123\n"}]}]}]}`,
			side: `{"model":"claude-x","stream":false,"messages":[{"role":"user","content":"title?"}]}`,
			toolCall: func(t *testing.T, b []byte) (string, map[string]any) {
				var name, args string
				for _, e := range sseData(t, b) {
					if cb, ok := e["content_block"].(map[string]any); ok && cb["type"] == "tool_use" {
						name, _ = cb["name"].(string)
					}
					if d, ok := e["delta"].(map[string]any); ok && d["type"] == "input_json_delta" {
						args += d["partial_json"].(string)
					}
				}
				return name, decodeArgs(t, args)
			},
			text: func(t *testing.T, b []byte) string {
				if !bytes.HasPrefix(b, []byte("event:")) {
					var m struct{ Content []struct{ Text string } }
					mustJSON(t, b, &m)
					return m.Content[0].Text
				}
				var s string
				for _, e := range sseData(t, b) {
					if d, ok := e["delta"].(map[string]any); ok && d["type"] == "text_delta" {
						s += d["text"].(string)
					}
				}
				return s
			},
		},
		{
			dialect: Responses, path: "/v1/responses", offered: []string{"request_user_input", "mcp__awf/Bash", "mcp__awf/Read"},
			first: `{"model":"gpt-x","stream":true,"tools":[{"type":"function","name":"request_user_input"},
				{"type":"namespace","name":"mcp__awf","tools":[{"type":"function","name":"Bash"},{"type":"function","name":"Read"}]}],
				"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"read it"}]}]}`,
			second: `{"model":"gpt-x","stream":true,"tools":[],"input":[
				{"type":"function_call","name":"Read","namespace":"mcp__awf","arguments":"{}","call_id":"c1"},
				{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"Wall time: 0.01 seconds\nOutput:"},{"type":"input_text","text":"MARK-123"}]}]}`,
			side: `{"model":"gpt-x","stream":true,"input":"title?"}`,
			toolCall: func(t *testing.T, b []byte) (string, map[string]any) {
				for _, e := range sseData(t, b) {
					if e["type"] == "response.output_item.done" {
						item := e["item"].(map[string]any)
						name := item["name"].(string)
						if ns, ok := item["namespace"].(string); ok {
							name = ns + "/" + name
						}
						return name, decodeArgs(t, item["arguments"].(string))
					}
				}
				return "", nil
			},
			text: func(t *testing.T, b []byte) string {
				for _, e := range sseData(t, b) {
					if e["type"] == "response.output_item.done" {
						content := e["item"].(map[string]any)["content"].([]any)
						return content[0].(map[string]any)["text"].(string)
					}
				}
				return ""
			},
		},
		{
			dialect: Gemini, path: "/v1beta/models/gemini-x:streamGenerateContent", offered: []string{"mcp_awf_Bash", "mcp_awf_Read"},
			first: `{"contents":[{"role":"user","parts":[{"text":"read it"}]}],
				"tools":[{"functionDeclarations":[{"name":"mcp_awf_Bash"},{"name":"mcp_awf_Read"}]}]}`,
			second: `{"contents":[{"role":"user","parts":[{"text":"read it"}]},
				{"role":"model","parts":[{"functionCall":{"name":"mcp_awf_Read","args":{}}}]},
				{"role":"user","parts":[{"functionResponse":{"name":"mcp_awf_Read","response":{"output":"<untrusted_context>MARK-123</untrusted_context>"}}}]}],
				"tools":[{"functionDeclarations":[{"name":"mcp_awf_Read"}]}]}`,
			side: `{"contents":[{"role":"user","parts":[{"text":"route?"}]}]}`,
			toolCall: func(t *testing.T, b []byte) (string, map[string]any) {
				part := geminiPart(t, b)
				fc, _ := part["functionCall"].(map[string]any)
				if fc == nil {
					return "", nil
				}
				args, _ := fc["args"].(map[string]any)
				return fc["name"].(string), args
			},
			text: func(t *testing.T, b []byte) string {
				s, _ := geminiPart(t, b)["text"].(string)
				return s
			},
		},
		{
			dialect: Chat, path: "/v1/chat/completions", offered: []string{"awf_Bash", "awf_Read"},
			first: `{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"awf_Bash"}},{"type":"function","function":{"name":"awf_Read"}}],
				"messages":[{"role":"user","content":"read it"}]}`,
			second: `{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"awf_Read"}}],"messages":[
				{"role":"user","content":"read it"},
				{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"awf_Read","arguments":"{}"}}]},
				{"role":"tool","tool_call_id":"c1","content":"MARK-123"}]}`,
			side: `{"model":"m","stream":false,"messages":[{"role":"system","content":"You are a title generator"}]}`,
			toolCall: func(t *testing.T, b []byte) (string, map[string]any) {
				for _, e := range sseData(t, b) {
					delta := e["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)
					if calls, ok := delta["tool_calls"].([]any); ok {
						fn := calls[0].(map[string]any)["function"].(map[string]any)
						return fn["name"].(string), decodeArgs(t, fn["arguments"].(string))
					}
				}
				return "", nil
			},
			text: func(t *testing.T, b []byte) string {
				if !bytes.HasPrefix(b, []byte("data:")) {
					var m struct {
						Choices []struct{ Message struct{ Content string } }
					}
					mustJSON(t, b, &m)
					return m.Choices[0].Message.Content
				}
				var s string
				for _, e := range sseData(t, b) {
					delta := e["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)
					if c, ok := delta["content"].(string); ok {
						s += c
					}
				}
				return s
			},
		},
	}
}

func TestDialects(t *testing.T) {
	for _, c := range dialectCases() {
		t.Run(string(c.dialect), func(t *testing.T) {
			srv := Start(t, dialectScript)

			status, body := post(t, srv.URL+c.path, c.first)
			if status != http.StatusOK {
				t.Fatalf("first request: status %d: %s", status, body)
			}
			name, args := c.toolCall(t, body)
			if !nameMatches("Read", name) || args["file_path"] != "/w/a.txt" {
				t.Fatalf("first answer calls %q with %v, want the offered Read with file_path /w/a.txt; body:\n%s", name, args, body)
			}

			status, body = post(t, srv.URL+c.path, c.second)
			if status != http.StatusOK {
				t.Fatalf("second request: status %d: %s", status, body)
			}
			if text := c.text(t, body); !strings.HasPrefix(text, "FINAL") || !strings.Contains(text, "MARK-123") {
				t.Fatalf("second answer %q: want FINAL quoting the result with MARK-123", text)
			}

			status, body = post(t, srv.URL+c.path, c.side)
			if status != http.StatusOK {
				t.Fatalf("side request: status %d: %s", status, body)
			}
			if text := c.text(t, body); !strings.Contains(text, "fakemodel:") {
				t.Fatalf("side answer %q: want the plain fakemodel text", text)
			}

			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("recorded %d requests, want 3:\n%s", len(reqs), srv.Summary())
			}
			if reqs[0].Dialect != c.dialect || strings.Join(reqs[0].OfferedTools, ",") != strings.Join(c.offered, ",") {
				t.Errorf("first request recorded as %s offering %v; want %s offering %v", reqs[0].Dialect, reqs[0].OfferedTools, c.dialect, c.offered)
			}
			if reqs[0].ReplyTool == "" || !reqs[1].Final || reqs[2].Final {
				t.Errorf("reply kinds recorded wrong:\n%s", srv.Summary())
			}
			results := srv.ToolResults()
			if len(results) != 1 || !strings.Contains(results[0], "MARK-123") {
				t.Errorf("ToolResults = %q, want one result holding MARK-123", results)
			}
			if len(srv.OfferedTools()) != 3 {
				t.Errorf("OfferedTools has %d entries, want one per request", len(srv.OfferedTools()))
			}
		})
	}
}

func TestSideEndpoints(t *testing.T) {
	srv := Start(t, dialectScript)
	cases := []struct {
		method, path string
		status       int
		contains     string
	}{
		{"POST", "/v1/messages/count_tokens", 200, `"input_tokens"`},
		{"POST", "/v1beta/models/gemini-x:countTokens", 200, `"totalTokens"`},
		{"GET", "/v1/models", 200, `"fake-model"`},
		{"GET", "/v1beta/models", 200, `"models/fake-gemini"`},
		{"GET", "/api/unknown", 404, "no such endpoint"},
		{"POST", "/v1/messages", 400, "fakemodel:"}, // not JSON
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader("not json"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(b), c.contains) {
			t.Errorf("%s %s = %d %s; want %d containing %q", c.method, c.path, resp.StatusCode, b, c.status, c.contains)
		}
	}
	if side := srv.SideRequests(); len(side) != len(cases) || !strings.HasPrefix(side[4], "GET /api/unknown 404") {
		t.Errorf("SideRequests = %q, want every request above listed in order", side)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("side endpoints recorded %d model requests, want 0", n)
	}
}

func TestJSONSideRequests(t *testing.T) {
	srv := Start(t, dialectScript)
	gemini := `{"contents":[{"role":"user","parts":[{"text":"score"}]}],"generationConfig":{"responseMimeType":"application/json",
		"responseJsonSchema":{"type":"OBJECT","properties":{"complexity_score":{"type":"INTEGER"}},"required":["complexity_score"]}}}`
	_, body := post(t, srv.URL+"/v1beta/models/flash:generateContent", gemini)
	var resp struct {
		Candidates []struct {
			Content struct{ Parts []struct{ Text string } }
		}
	}
	mustJSON(t, body, &resp)
	if got := resp.Candidates[0].Content.Parts[0].Text; got != `{"complexity_score":1}` {
		t.Errorf("gemini JSON side answer = %s, want {\"complexity_score\":1}", got)
	}
	chat := `{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"schema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}}`
	_, body = post(t, srv.URL+"/v1/chat/completions", chat)
	if !strings.Contains(string(body), `"content":"{\"ok\":false}"`) {
		t.Errorf("chat JSON side answer = %s, want content {\"ok\":false}", body)
	}
}

func TestOutboundAttemptsRecorded(t *testing.T) {
	srv := Start(t, dialectScript)
	proxy, _ := url.Parse(srv.URL)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	if _, err := client.Get("https://registry.example.invalid/pkg"); err == nil {
		t.Fatal("an HTTPS request through the fake as proxy succeeded; want it refused")
	}
	resp, err := client.Get("http://plain.example.invalid/x")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("plain proxied request: status %d, want 403", resp.StatusCode)
	}
	got := strings.Join(srv.OutboundAttempts(), "|")
	if got != "CONNECT registry.example.invalid:443|GET plain.example.invalid/x" {
		t.Errorf("OutboundAttempts = %q", got)
	}
}

func post(t *testing.T, u, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// sseData decodes every "data:" line of an SSE body, skipping [DONE].
func sseData(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var m map[string]any
		mustJSON(t, []byte(data), &m)
		out = append(out, m)
	}
	return out
}

// geminiPart returns the first part of the first candidate, from SSE or plain JSON.
func geminiPart(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if events := sseData(t, b); len(events) > 0 {
		m = events[0]
	} else {
		mustJSON(t, b, &m)
	}
	cand := m["candidates"].([]any)[0].(map[string]any)
	return cand["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)
}

func decodeArgs(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	mustJSON(t, []byte(s), &m)
	return m
}

func mustJSON(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("not JSON (%v): %s", err, b)
	}
}
