package openai

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
)

var _ ports.AgentProvider = (*Provider)(nil)

func TestPlainChatWithoutTools(t *testing.T) {
	ms := newModelServer(t, sse(contentChunk("Hel"), contentChunk("lo"), contentChunk(" world"), finishChunk("stop"), usageChunk(12, 3)))
	p := testProvider(nil)
	req := stepRequest(ms, nil, map[string]any{"system_prompt": "be brief", "temperature": int64(0), "max_tokens": 64.0})
	res, err := p.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "Hello world" || res.InputTokens != 12 || res.OutputTokens != 3 {
		t.Fatalf("result = %+v", res)
	}
	reqs := ms.got()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	b := reqs[0].Body
	if b["stream"] != true || b["model"] != "test-model" || b["temperature"] != 0.0 || b["max_tokens"] != 64.0 {
		t.Errorf("request = %s", reqs[0].Raw)
	}
	if so, _ := b["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("stream_options = %v, want include_usage", b["stream_options"])
	}
	if _, ok := b["tools"]; ok {
		t.Errorf("tools sent without a session: %s", reqs[0].Raw)
	}
	if _, ok := b["tool_choice"]; ok {
		t.Errorf("tool_choice sent without tools: %s", reqs[0].Raw)
	}
	msgs := reqs[0].messages()
	if len(msgs) != 2 || msgs[0]["role"] != "system" || msgs[0]["content"] != "be brief" || msgs[1]["role"] != "user" || msgs[1]["content"] != "do the thing" {
		t.Errorf("messages = %v", msgs)
	}
}

func TestToolCallSplitOverManyChunks(t *testing.T) {
	args := `{"file_path":"README.md","limit":20,"note":"ünïcödé \"quoted\""}`
	events := []string{toolChunk(0, "call_a", "Read", "")}
	for _, piece := range splitEvery(args, 1) {
		events = append(events, toolChunk(0, "", "", piece))
	}
	events = append(events, finishChunk("tool_calls"), usageChunk(100, 20))
	ms := newModelServer(t, sse(events...), answer("done"))
	sess := newSession("Read", "Grep")
	res, err := testProvider(nil).Run(context.Background(), stepRequest(ms, sess, nil))
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "done" || res.InputTokens != 110 || res.OutputTokens != 25 {
		t.Fatalf("result = %+v", res)
	}
	calls := sess.recorded()
	if len(calls) != 1 || calls[0].name != "Read" || calls[0].args != args {
		t.Fatalf("calls = %+v, want Read with %s", calls, args)
	}
	reqs := ms.got()
	tools := reqs[0].Body["tools"].([]any)
	fn := tools[0].(map[string]any)["function"].(map[string]any)
	if len(tools) != 2 || fn["name"] != "Read" || fn["description"] != "the Read tool" || fn["parameters"].(map[string]any)["type"] != "object" {
		t.Errorf("tools = %v", tools)
	}
	if reqs[0].Body["tool_choice"] != "auto" {
		t.Errorf("tool_choice = %v", reqs[0].Body["tool_choice"])
	}
	msgs := reqs[1].messages()
	if len(msgs) != 3 {
		t.Fatalf("second request has %d messages, want user, assistant, tool: %v", len(msgs), msgs)
	}
	tc := msgs[1]["tool_calls"].([]any)[0].(map[string]any)
	if msgs[1]["role"] != "assistant" || tc["id"] != "call_a" || tc["function"].(map[string]any)["arguments"] != args {
		t.Errorf("assistant message = %v", msgs[1])
	}
	if msgs[2]["role"] != "tool" || msgs[2]["tool_call_id"] != "call_a" || msgs[2]["content"] != "result of Read "+args {
		t.Errorf("tool message = %v", msgs[2])
	}
}

func TestParallelToolCallsInOneTurn(t *testing.T) {
	// Three calls whose pieces arrive interleaved, the way vLLM and OpenAI stream them.
	ms := newModelServer(t, sse(
		toolChunk(0, "c0", "Read", `{"x":`),
		toolChunk(1, "c1", "Grep", `{"x"`),
		toolChunk(2, "c2", "notes_put", `{`),
		toolChunk(1, "", "", `:"b"}`),
		toolChunk(0, "", "", `"a"}`),
		toolChunk(2, "", "", `"x":"c"}`),
		finishChunk("tool_calls"),
	), answer("all three done"))
	sess := newSession("Read", "Grep", "notes_put")
	res, err := testProvider(nil).Run(context.Background(), stepRequest(ms, sess, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []sessionCall{{"Read", `{"x":"a"}`}, {"Grep", `{"x":"b"}`}, {"notes_put", `{"x":"c"}`}}
	calls := sess.recorded()
	if len(calls) != len(want) {
		t.Fatalf("calls = %+v", calls)
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Errorf("call %d = %+v, want %+v", i, calls[i], want[i])
		}
	}
	msgs := ms.got()[1].messages()
	for i, id := range []string{"c0", "c1", "c2"} {
		m := msgs[2+i]
		if m["role"] != "tool" || m["tool_call_id"] != id || !strings.Contains(m["content"].(string), want[i].name) {
			t.Errorf("tool message %d = %v, want the result of %s for %s", i, m, want[i].name, id)
		}
	}
	if res.Output != "all three done" {
		t.Errorf("output = %q", res.Output)
	}
}

func TestRefusedCallIsFedBackAndTheStepGoesOn(t *testing.T) {
	refusal := "Tool 'Bash' is marked destructive by server, use call_tool_destructive"
	ms := newModelServer(t,
		sse(toolChunk(0, "b1", "Bash", `{"command":"rm -rf /"}`), finishChunk("tool_calls")),
		answer("I was refused"))
	sess := newSession("Read", "Bash")
	sess.results["Bash"] = tool.Error(refusal)
	res, err := testProvider(nil).Run(context.Background(), stepRequest(ms, sess, nil))
	if err != nil {
		t.Fatalf("a refusal must not fail the step: %v", err)
	}
	msgs := ms.got()[1].messages()
	if got := msgs[2]["content"]; got != "ERROR: "+refusal {
		t.Errorf("tool message = %q, want the refusal prefixed with ERROR:", got)
	}
	if res.Output != "I was refused" {
		t.Errorf("output = %q", res.Output)
	}
}

func TestToolCallsHonouredWithFinishReasonStop(t *testing.T) {
	// Ollama and some llama.cpp versions send a whole call in one chunk with finish_reason stop.
	ms := newModelServer(t,
		sse(`{"choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"id":"o1","type":"function","function":{"name":"Grep","arguments":{"pattern":"awf"}}}]},"finish_reason":"stop"}]}`),
		answer("found it"))
	sess := newSession("Grep")
	res, err := testProvider(nil).Run(context.Background(), stepRequest(ms, sess, nil))
	if err != nil {
		t.Fatal(err)
	}
	calls := sess.recorded()
	if len(calls) != 1 || calls[0].name != "Grep" || calls[0].args != `{"pattern":"awf"}` {
		t.Fatalf("calls = %+v", calls)
	}
	if res.Output != "found it" {
		t.Errorf("output = %q", res.Output)
	}
}

func TestModelCallingToolsWithoutASession(t *testing.T) {
	ms := newModelServer(t, sse(toolChunk(0, "x", "Read", `{}`), finishChunk("tool_calls")), answer("ok"))
	res, err := testProvider(nil).Run(context.Background(), stepRequest(ms, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := ms.got()[1].messages()[2]["content"].(string); !strings.HasPrefix(got, "ERROR: no tools are available") {
		t.Errorf("tool message = %q", got)
	}
	if res.Output != "ok" {
		t.Errorf("output = %q", res.Output)
	}
}

func TestLoopGuard(t *testing.T) {
	always := sse(toolChunk(0, "r", "Read", `{}`), finishChunk("tool_calls"))
	tests := []struct {
		name      string
		always    bool
		opts      map[string]any
		requests  int
		toolCalls int
		inMessage string
	}{
		{"tool_calls without calls", false, nil, 1, 0, "asking for tool calls but sent none"},
		{"more than max_turns", true, map[string]any{"max_turns": int64(3)}, 3, 2, "max_turns (3)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reply := sse(contentChunk("let me think"), finishChunk("tool_calls"))
			if tc.always {
				reply = always
			}
			ms := newModelServer(t, reply)
			sess := newSession("Read")
			_, err := testProvider(nil).Run(context.Background(), stepRequest(ms, sess, tc.opts))
			if fault.CodeOf(err) != fault.UserMCPProxyInfiniteLoopGuard || !strings.Contains(err.Error(), tc.inMessage) {
				t.Fatalf("err = %v, want %s mentioning %q", err, fault.UserMCPProxyInfiniteLoopGuard, tc.inMessage)
			}
			if n := len(ms.got()); n != tc.requests {
				t.Errorf("%d model requests, want %d", n, tc.requests)
			}
			// The calls of the turn that hits the cap are not run: their results would never be read.
			if n := len(sess.recorded()); n != tc.toolCalls {
				t.Errorf("%d tool calls run, want %d", n, tc.toolCalls)
			}
		})
	}
}

func TestDefaultMaxTurnsIs25(t *testing.T) {
	ms := newModelServer(t, sse(toolChunk(0, "r", "Read", `{}`), finishChunk("tool_calls")))
	_, err := testProvider(nil).Run(context.Background(), stepRequest(ms, newSession("Read"), nil))
	if fault.CodeOf(err) != fault.UserMCPProxyInfiniteLoopGuard || len(ms.got()) != DefaultMaxTurns {
		t.Fatalf("err = %v after %d requests, want the guard after %d", err, len(ms.got()), DefaultMaxTurns)
	}
}

func TestNonStreamingAnswers(t *testing.T) {
	toolAnswer := `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,
		"tool_calls":[{"id":"n1","type":"function","function":{"name":"Read","arguments":"{\"x\":\"1\"}"}},
		              {"id":"n2","type":"function","function":{"name":"Grep","arguments":"{\"x\":\"2\"}"}}]},"finish_reason":"tool_calls"}],
		"usage":{"prompt_tokens":7,"completion_tokens":2}}`
	final := `{"choices":[{"index":0,"message":{"role":"assistant","content":"plain answer"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":4}}`
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "text/plain", ""} {
		t.Run("content-type "+ct, func(t *testing.T) {
			ms := newModelServer(t, raw(200, ct, toolAnswer), raw(200, ct, final))
			sess := newSession("Read", "Grep")
			res, err := testProvider(nil).Run(context.Background(), stepRequest(ms, sess, nil))
			if err != nil {
				t.Fatal(err)
			}
			if res.Output != "plain answer" || res.InputTokens != 16 || res.OutputTokens != 6 {
				t.Errorf("result = %+v", res)
			}
			if calls := sess.recorded(); len(calls) != 2 || calls[0].args != `{"x":"1"}` || calls[1].name != "Grep" {
				t.Errorf("calls = %+v", calls)
			}
		})
	}
}

func TestStepContextBoundsTheLoop(t *testing.T) {
	ms := newModelServer(t, hang)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := testProvider(nil).Run(ctx, stepRequest(ms, nil, nil))
	if fault.CodeOf(err) != fault.ExecutionAgentCancelled || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want %s wrapping context.Canceled", err, fault.ExecutionAgentCancelled)
	}
}

func TestConcurrentRunsShareNothing(t *testing.T) {
	p := testProvider(nil) // one value for every step, as awf wires it
	const n = 4
	errs := make(chan error, n)
	for i := range n {
		ms := newModelServer(t, sse(toolChunk(0, "c", "Read", `{"i":`+string(rune('0'+i))+`}`), finishChunk("tool_calls")), answer("step "+string(rune('0'+i))))
		sess := newSession("Read")
		go func() {
			res, err := p.Run(context.Background(), stepRequest(ms, sess, nil))
			if err == nil && (res.Output != "step "+string(rune('0'+i)) || len(sess.recorded()) != 1 || sess.recorded()[0].args != `{"i":`+string(rune('0'+i))+`}`) {
				err = errors.New("step " + string(rune('0'+i)) + " saw another step's data: " + res.Output)
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
