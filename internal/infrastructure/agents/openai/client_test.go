package openai

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

func TestHTTPErrorsAreExplained(t *testing.T) {
	tests := []struct {
		name     string
		reply    http.HandlerFunc
		env      map[string]string
		code     string
		mentions []string
	}{
		{"401 without a key", raw(401, "application/json", `{"error":{"message":"missing bearer"}}`), nil,
			fault.ExecutionAgentAuth, []string{"refused the credentials (401)", "missing bearer", "$OPENAI_API_KEY is empty or unset"}},
		{"403 with a key", raw(403, "application/json", `{"error":{"message":"no access"}}`), map[string]string{"OPENAI_API_KEY": "k-123456"},
			fault.ExecutionAgentAuth, []string{"(403)", "check the key in $OPENAI_API_KEY"}},
		{"404 names the model", raw(404, "application/json", `{"error":{"message":"model 'test-model' not found","type":"invalid_request_error"}}`), nil,
			fault.ExecutionAgentNotFound, []string{`model "test-model" or base_url`, "answered 404", "not found", "/models"}},
		{"400 says what the server said", raw(400, "application/json", `{"error":"tools are not supported by this model"}`), nil,
			fault.ExecutionAgentBadRequest, []string{"rejected the request", "tools are not supported"}},
		{"418 other status", raw(418, "text/plain", "I'm a teapot"), nil,
			fault.ExecutionAgentHTTPStatus, []string{"answered 418", "teapot"}},
		{"mid-stream error object", sse(contentChunk("par"), `{"error":{"message":"out of memory","type":"server_error"}}`), nil,
			fault.ExecutionAgentServerError, []string{"reported an error", "out of memory"}},
		{"200 JSON error object", raw(200, "application/json", `{"error":{"message":"context length exceeded"}}`), nil,
			fault.ExecutionAgentServerError, []string{"context length exceeded"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ms := newModelServer(t, tc.reply)
			_, err := testProvider(tc.env).Run(context.Background(), stepRequest(ms, nil, nil))
			if fault.CodeOf(err) != tc.code {
				t.Fatalf("err = %v, want code %s", err, tc.code)
			}
			if fault.ExitCode(err) != fault.ExitExecution {
				t.Errorf("exit code %d, want %d", fault.ExitCode(err), fault.ExitExecution)
			}
			for _, m := range tc.mentions {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
			if n := len(ms.got()); n != 1 {
				t.Errorf("%d requests, want 1 (no retry)", n)
			}
		})
	}
}

func TestConnectionRefusedSaysTheServerIsNotReachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	req := ports.AgentRequest{Step: "agent", Prompt: "hi", Options: map[string]any{"base_url": "http://" + addr + "/v1", "model": "m"}}
	_, err = testProvider(nil).Run(context.Background(), req)
	if fault.CodeOf(err) != fault.ExecutionAgentUnreachable || !strings.Contains(err.Error(), "http://"+addr+"/v1 is not reachable") {
		t.Fatalf("err = %v, want %s naming the base_url", err, fault.ExecutionAgentUnreachable)
	}
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name     string
		replies  []http.HandlerFunc
		code     string // "" = success
		requests int
		minWait  time.Duration
		mentions string
	}{
		{"429 then success", []http.HandlerFunc{raw(429, "", "slow down", "Retry-After", "0"), answer("ok")}, "", 2, 0, ""},
		{"429 honours Retry-After seconds", []http.HandlerFunc{raw(429, "", "", "Retry-After", "1"), answer("ok")}, "", 2, time.Second, ""},
		{"429 honours retry-after-ms", []http.HandlerFunc{raw(429, "", "", "retry-after-ms", "300"), answer("ok")}, "", 2, 300 * time.Millisecond, ""},
		{"429 asking for too long fails at once", []http.HandlerFunc{raw(429, "", "", "Retry-After", "3600")}, fault.ExecutionAgentRateLimited, 1, 0, "longer than awf waits"},
		{"429 every time", []http.HandlerFunc{raw(429, "", `{"error":{"message":"quota"}}`, "Retry-After", "0")}, fault.ExecutionAgentRateLimited, 3, 0, "after 3 attempt(s): quota"},
		{"503 twice then success", []http.HandlerFunc{raw(503, "", "busy"), raw(502, "", "gateway"), answer("ok")}, "", 3, 0, ""},
		{"500 every time", []http.HandlerFunc{raw(500, "", "boom")}, fault.ExecutionAgentServerError, 3, 0, "failed (500) for model \"test-model\" after 3 attempt(s): boom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ms := newModelServer(t, tc.replies...)
			start := time.Now()
			res, err := testProvider(nil).Run(context.Background(), stepRequest(ms, nil, nil))
			elapsed := time.Since(start)
			if fault.CodeOf(err) != tc.code {
				t.Fatalf("err = %v, want code %q", err, tc.code)
			}
			if tc.code == "" && res.Output != "ok" {
				t.Errorf("output = %q", res.Output)
			}
			if tc.mentions != "" && !strings.Contains(err.Error(), tc.mentions) {
				t.Errorf("error %q does not mention %q", err, tc.mentions)
			}
			if n := len(ms.got()); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
			if elapsed < tc.minWait {
				t.Errorf("took %s, want at least the %s the server asked for", elapsed, tc.minWait)
			}
		})
	}
}

func TestRetryWaitStopsWithTheStep(t *testing.T) {
	ms := newModelServer(t, raw(503, "", "busy", "Retry-After", "2"))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := testProvider(nil).Run(ctx, stepRequest(ms, nil, nil))
	if fault.CodeOf(err) != fault.ExecutionAgentCancelled || time.Since(start) > 1500*time.Millisecond {
		t.Fatalf("err = %v after %s, want %s promptly", err, time.Since(start), fault.ExecutionAgentCancelled)
	}
}

func TestTimeouts(t *testing.T) {
	stall := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte("data: " + contentChunk("partial") + "\n\n"))
		w.(http.Flusher).Flush()
		waitForClient(r)
	}
	tests := []struct {
		name  string
		reply http.HandlerFunc
		opts  map[string]any
		step  time.Duration
		code  string
	}{
		{"request_timeout before headers", hang, map[string]any{"request_timeout": "150ms"}, 0, fault.ExecutionAgentRequestTimeout},
		{"request_timeout mid-stream", stall, map[string]any{"request_timeout": "150ms"}, 0, fault.ExecutionAgentRequestTimeout},
		{"step timeout", stall, nil, 150 * time.Millisecond, fault.ExecutionAgentCancelled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ms := newModelServer(t, tc.reply)
			ctx := context.Background()
			if tc.step > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.step)
				defer cancel()
			}
			start := time.Now()
			_, err := testProvider(nil).Run(ctx, stepRequest(ms, nil, tc.opts))
			if fault.CodeOf(err) != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %s: the timeout did not stop the request", d)
			}
			if tc.code == fault.ExecutionAgentRequestTimeout && !strings.Contains(err.Error(), "request_timeout (150ms)") {
				t.Errorf("error %q does not name the timeout", err)
			}
			if tc.code == fault.ExecutionAgentCancelled && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v does not wrap the step's deadline", err)
			}
			if n := len(ms.got()); n != 1 {
				t.Errorf("%d requests, want 1: timeouts are not retried", n)
			}
		})
	}
}

func TestMalformedAnswers(t *testing.T) {
	tests := []struct {
		name     string
		reply    http.HandlerFunc
		code     string
		mentions string
	}{
		{"event is not JSON", sse(contentChunk("a"), `{"choices":[{"delta":`), fault.ExecutionAgentMalformedResponse, "line 3: the stream event is not JSON"},
		{"HTML page", raw(200, "text/html", "<html><body>login</body></html>"), fault.ExecutionAgentMalformedResponse, "expected a server-sent event"},
		{"JSON without choices", raw(200, "application/json", `{"object":"list","data":[]}`), fault.ExecutionAgentMalformedResponse, "has no choices"},
		{"JSON that is not JSON", raw(200, "application/json", `{"choices": [`), fault.ExecutionAgentMalformedResponse, "not a chat completion"},
		{"stream cut short", raw(200, "text/event-stream", "data: "+contentChunk("hal")+"\n\n"), fault.ExecutionAgentIncompleteResponse, "cut short"},
		{"empty 200", raw(200, "text/event-stream", ""), fault.ExecutionAgentIncompleteResponse, "no finish_reason"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ms := newModelServer(t, tc.reply)
			_, err := testProvider(nil).Run(context.Background(), stepRequest(ms, nil, nil))
			if fault.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.mentions) {
				t.Fatalf("err = %v, want %s mentioning %q", err, tc.code, tc.mentions)
			}
		})
	}
}

func TestAPIKeyIsSentAsBearerAndNeverShown(t *testing.T) {
	const key = "sk-test-SECRET-0123456789"
	core, logs := observer.New(zap.DebugLevel)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	// The server echoes the key in its error body, as some do ("Incorrect API key provided: …").
	ms := newModelServer(t, raw(401, "application/json", `{"error":{"message":"Incorrect API key provided: `+key+`"}}`))
	p := New(nil, zap.New(core), tp.Tracer("test"), WithGetenv(func(k string) string {
		if k == "MY_LLM_KEY" {
			return key
		}
		return ""
	}))
	_, err := p.Run(context.Background(), stepRequest(ms, nil, map[string]any{"api_key_env": "MY_LLM_KEY"}))
	if got := ms.got()[0].Header.Get("Authorization"); got != "Bearer "+key {
		t.Errorf("Authorization = %q, want the key as a bearer token", got)
	}
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "[redacted]") || !strings.Contains(err.Error(), "$MY_LLM_KEY") {
		t.Fatalf("err = %v: want the key redacted and the variable named", err)
	}
	for _, e := range logs.All() {
		for k, v := range e.ContextMap() {
			if strings.Contains(e.Message, key) || strings.Contains(toString(v), key) {
				t.Errorf("log line %q field %s holds the key", e.Message, k)
			}
		}
	}
	if logs.Len() == 0 {
		t.Error("no log line for the failed request")
	}
	for _, s := range rec.Ended() {
		for _, a := range s.Attributes() {
			if strings.Contains(a.Value.String(), key) {
				t.Errorf("span %s attribute %s holds the key", s.Name(), a.Key)
			}
		}
		for _, ev := range s.Events() {
			for _, a := range ev.Attributes {
				if strings.Contains(a.Value.String(), key) {
					t.Errorf("span %s event attribute %s holds the key", s.Name(), a.Key)
				}
			}
		}
	}
}

func TestNoAuthorizationHeaderWithoutAKey(t *testing.T) {
	ms := newModelServer(t, answer("hi"))
	if _, err := testProvider(nil).Run(context.Background(), stepRequest(ms, nil, nil)); err != nil {
		t.Fatal(err)
	}
	if h := ms.got()[0].Header; h.Get("Authorization") != "" {
		t.Errorf("Authorization = %q, want none for a local server without a key", h.Get("Authorization"))
	}
}

func TestSpansAndLogLinesPerRequest(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	ms := newModelServer(t,
		sse(toolChunk(0, "a", "Read", `{}`), finishChunk("tool_calls"), usageChunk(40, 4)),
		sse(contentChunk("fin"), finishChunk("stop"), usageChunk(60, 6)))
	p := New(nil, zap.New(core), tp.Tracer("test"))
	ctx, step := tp.Tracer("test").Start(context.Background(), "step agent")
	if _, err := p.Run(ctx, stepRequest(ms, newSession("Read"), nil)); err != nil {
		t.Fatal(err)
	}
	step.End()
	var llm []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == "llm.request" {
			llm = append(llm, s)
		}
	}
	if len(llm) != 2 {
		t.Fatalf("%d llm.request spans, want 2", len(llm))
	}
	for i, s := range llm {
		if s.Parent().SpanID() != step.SpanContext().SpanID() {
			t.Errorf("span %d is not a child of the step span", i)
		}
		attrs := map[string]string{}
		for _, a := range s.Attributes() {
			attrs[string(a.Key)] = a.Value.String()
		}
		want := map[string]string{
			"gen_ai.request.model": "test-model", "awf.llm.turn": []string{"1", "2"}[i],
			"gen_ai.usage.input_tokens": []string{"40", "60"}[i], "gen_ai.usage.output_tokens": []string{"4", "6"}[i],
			"gen_ai.response.finish_reasons": []string{`["tool_calls"]`, `["stop"]`}[i], "awf.step": "agent", "awf.run.id": "run1",
		}
		for k, v := range want {
			if attrs[k] != v {
				t.Errorf("span %d %s = %q, want %q", i, k, attrs[k], v)
			}
		}
	}
	lines := logs.FilterMessage("model request").All()
	if len(lines) != 2 || lines[1].ContextMap()["turn"] != int64(2) || lines[1].ContextMap()["completion_tokens"] != int64(6) {
		t.Errorf("log lines = %+v", lines)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		headers map[string]string
		want    time.Duration
		ok      bool
	}{
		{map[string]string{"Retry-After": "3"}, 3 * time.Second, true},
		{map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond, true},
		{map[string]string{"Retry-After-Ms": "250"}, 250 * time.Millisecond, true},
		{map[string]string{"Retry-After": now.Add(10 * time.Second).Format(http.TimeFormat)}, 10 * time.Second, true},
		{map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0, true},
		{map[string]string{"Retry-After": "soon"}, 0, false},
		{map[string]string{"Retry-After": "-4"}, 0, false},
		{map[string]string{}, 0, false},
	}
	for _, tc := range tests {
		h := http.Header{}
		for k, v := range tc.headers {
			h.Set(k, v)
		}
		got, ok := retryAfter(h, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("retryAfter(%v) = %s, %v; want %s, %v", tc.headers, got, ok, tc.want, tc.ok)
		}
	}
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}
