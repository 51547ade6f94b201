package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMalformedLinesDoNotEndTheSession(t *testing.T) {
	srv := newServer(t, Options{MaxLineBytes: 4096}, echo)
	h := startHarness(t, srv, true)
	cs := h.client("")
	callEcho(t, cs, "before")

	big := `{"jsonrpc":"2.0","id":"raw-big","method":"tools/call","params":{"name":"echo","arguments":{"text":"` +
		strings.Repeat("x", 10000) + `"}}}`
	cases := []struct {
		name     string
		line     string
		wantCode float64
		wantID   any
	}{
		{"not JSON", "this is not json", jsonrpc.CodeParseError, nil},
		{"truncated JSON", `{"jsonrpc":"2.0","id":"raw-1",`, jsonrpc.CodeParseError, nil},
		{"two values on one line", `{"a":1} {"b":2}`, jsonrpc.CodeParseError, nil},
		{"empty object", `{}`, jsonrpc.CodeInvalidRequest, nil},
		{"batch", `[1,2]`, jsonrpc.CodeInvalidRequest, nil},
		{"string", `"hello"`, jsonrpc.CodeInvalidRequest, nil},
		{"null", `null`, jsonrpc.CodeInvalidRequest, nil},
		{"wrong version", `{"jsonrpc":"1.0","id":"raw-2","method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "raw-2"},
		{"missing version", `{"id":"raw-3","method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "raw-3"},
		{"numeric method", `{"jsonrpc":"2.0","id":"raw-4","method":5}`, jsonrpc.CodeInvalidRequest, "raw-4"},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, nil},
		{"response without result", `{"jsonrpc":"2.0","id":"raw-5"}`, jsonrpc.CodeInvalidRequest, "raw-5"},
		{"string params", `{"jsonrpc":"2.0","id":"raw-6","method":"tools/list","params":"x"}`, jsonrpc.CodeInvalidRequest, "raw-6"},
		{"line over the limit", big, jsonrpc.CodeInvalidRequest, "raw-big"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h.send("")
			h.send("   \r")
			h.send(tc.line)
			resp := h.expect()
			e, _ := resp["error"].(map[string]any)
			if e == nil || e["code"] != tc.wantCode || resp["id"] != tc.wantID || resp["jsonrpc"] != "2.0" {
				t.Fatalf("answer = %v, want error code %v with id %v", resp, tc.wantCode, tc.wantID)
			}
			if msg, _ := e["message"].(string); msg == "" {
				t.Fatalf("error without a message: %v", resp)
			}
			callEcho(t, cs, tc.name)
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 {
		t.Fatalf("ListTools after bad input = %v, %v; want the echo tool", tools, err)
	}
	select {
	case extra := <-h.raw:
		t.Fatalf("unexpected extra answer (blank lines must be ignored): %v", extra)
	default:
	}
}

func TestConcurrentWritesStayWholeLines(t *testing.T) {
	srv := newServer(t, Options{}, echo)
	h := startHarness(t, srv, true)
	cs := h.client("")
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() { callEcho(t, cs, fmt.Sprintf("call-%d", i)) })
		wg.Go(func() { h.send("garbage") })
	}
	wg.Wait()
	for range 20 {
		if code := h.expect()["error"].(map[string]any)["code"]; code != float64(jsonrpc.CodeParseError) {
			t.Fatalf("garbage answered with code %v, want %d", code, jsonrpc.CodeParseError)
		}
	}
	// The harness cleanup fails the test if any write was not one whole line.
}

func TestUnknownMethodIsMethodNotFound(t *testing.T) {
	srv := newServer(t, Options{}, echo)
	h := startHarness(t, srv, false)

	h.send(`{"jsonrpc":"2.0","id":"raw-early","method":"tools/list"}`)
	if code := errorCode(t, h.expect()); code == 0 {
		t.Fatalf("a call before initialize was answered with code 0; every error needs a JSON-RPC code")
	}

	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":"raw-7","method":"no/such/method","params":{}}`)
	resp := h.expect()
	if code := errorCode(t, resp); code != jsonrpc.CodeMethodNotFound || resp["id"] != "raw-7" {
		t.Fatalf("unknown method answered %v, want code %d for id raw-7", resp, jsonrpc.CodeMethodNotFound)
	}
	h.send(`{"jsonrpc":"2.0","id":"raw-8","method":"tools/call","params":{"name":"nope","arguments":{}}}`)
	if code := errorCode(t, h.expect()); code != jsonrpc.CodeInvalidParams {
		t.Fatalf("unknown tool answered code %d, want %d", code, jsonrpc.CodeInvalidParams)
	}
}

func errorCode(t *testing.T, resp map[string]any) int {
	t.Helper()
	e, ok := resp["error"].(map[string]any)
	if !ok {
		t.Fatalf("want an error response, got %v", resp)
	}
	code, _ := e["code"].(float64)
	return int(code)
}

func TestProtocolVersionNegotiation(t *testing.T) {
	cases := []struct{ asked, want string }{
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2025-03-26", "2025-03-26"},
		{"2024-11-05", "2024-11-05"},
		{"1999-01-01", "2025-11-25"},
	}
	for _, tc := range cases {
		t.Run("raw "+tc.asked, func(t *testing.T) {
			srv := newServer(t, Options{Name: "neg", Version: "9.9"}, echo)
			h := startHarness(t, srv, false)
			result := h.initialize(tc.asked)
			if result["protocolVersion"] != tc.want {
				t.Fatalf("negotiated %v, want %s", result["protocolVersion"], tc.want)
			}
			info, _ := result["serverInfo"].(map[string]any)
			if info["name"] != "neg" || info["version"] != "9.9" {
				t.Fatalf("serverInfo = %v, want neg 9.9", info)
			}
			caps, _ := result["capabilities"].(map[string]any)
			if _, ok := caps["tools"]; !ok || len(caps) != 1 {
				t.Fatalf("capabilities = %v, want tools only", caps)
			}
			h.send(`{"jsonrpc":"2.0","id":"raw-list","method":"tools/list"}`)
			tools, _ := h.expect()["result"].(map[string]any)["tools"].([]any)
			if len(tools) != 1 {
				t.Fatalf("tools/list after initialize = %v, want one tool", tools)
			}
		})
	}
	for _, version := range []string{"2025-11-25", "2025-06-18", ""} {
		t.Run("sdk client "+version, func(t *testing.T) {
			srv := newServer(t, Options{}, echo)
			h := startHarness(t, srv, true)
			cs := h.client(version)
			if version != "" && cs.InitializeResult().ProtocolVersion != version {
				t.Fatalf("negotiated %s, want %s", cs.InitializeResult().ProtocolVersion, version)
			}
			callEcho(t, cs, "negotiated "+version)
		})
	}
}

func TestToolsAreListedWithAnnotations(t *testing.T) {
	srv := newSrv(Options{})
	tools := []Tool{
		{Name: "plain", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "read", Title: "Read a file", Description: "reads", InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: &Annotations{ReadOnlyHint: ptr(true)}},
		{Name: "bash", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`),
			Annotations: &Annotations{Title: "Shell", DestructiveHint: ptr(true), OpenWorldHint: ptr(true), IdempotentHint: ptr(false)}},
	}
	for _, tl := range tools {
		if err := srv.AddTool(tl, func(context.Context, json.RawMessage) (*Result, error) { return nil, nil }); err != nil {
			t.Fatal(err)
		}
	}
	h := startHarness(t, srv, false)
	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":"raw-list","method":"tools/list"}`)
	listed := map[string]map[string]any{}
	for _, tl := range h.expect()["result"].(map[string]any)["tools"].([]any) {
		m := tl.(map[string]any)
		listed[m["name"].(string)] = m
	}
	if _, ok := listed["plain"]["annotations"]; ok {
		t.Errorf("a tool without hints must carry no annotations object: %v", listed["plain"])
	}
	if a := listed["read"]["annotations"].(map[string]any); a["readOnlyHint"] != true || listed["read"]["title"] != "Read a file" {
		t.Errorf("read = %v, want title and readOnlyHint true", listed["read"])
	}
	a := listed["bash"]["annotations"].(map[string]any)
	if a["destructiveHint"] != true || a["openWorldHint"] != true || a["readOnlyHint"] != false || a["title"] != "Shell" {
		t.Errorf("bash annotations = %v", a)
	}
	if req := listed["bash"]["inputSchema"].(map[string]any)["required"]; fmt.Sprint(req) != "[command]" {
		t.Errorf("bash schema not passed through: %v", listed["bash"]["inputSchema"])
	}
}

func TestArgumentsArePassedRaw(t *testing.T) {
	got := make(chan string, 2)
	srv := newServer(t, Options{}, func() (Tool, Handler) {
		return Tool{Name: "raw", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)},
			func(_ context.Context, args json.RawMessage) (*Result, error) {
				got <- string(args)
				return &Result{Content: []Content{{Text: "ok"}}}, nil
			}
	})
	h := startHarness(t, srv, false)
	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":"raw-1","method":"tools/call","params":{"name":"raw","arguments":{"n":"not a number"}}}`)
	if resp := h.expect(); resp["error"] != nil {
		t.Fatalf("arguments that break the schema must reach the handler, got %v", resp)
	}
	if args := <-got; args != `{"n":"not a number"}` {
		t.Fatalf("handler got %s, want the arguments unchanged", args)
	}
	h.send(`{"jsonrpc":"2.0","id":"raw-2","method":"tools/call","params":{"name":"raw"}}`)
	h.expect()
	if args := <-got; args != `{}` {
		t.Fatalf("handler got %s for absent arguments, want {}", args)
	}
}

func TestHandlerErrorsAndPanics(t *testing.T) {
	srv := newServer(t, Options{}, echo,
		func() (Tool, Handler) {
			return Tool{Name: "panics", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, json.RawMessage) (*Result, error) { panic("kaboom") }
		},
		func() (Tool, Handler) {
			return Tool{Name: "fails", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, json.RawMessage) (*Result, error) { return nil, errors.New("backend unreachable") }
		},
		func() (Tool, Handler) {
			return Tool{Name: "coded", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, json.RawMessage) (*Result, error) {
					return nil, fmt.Errorf("checking: %w", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"})
				}
		},
		func() (Tool, Handler) {
			return Tool{Name: "image", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, json.RawMessage) (*Result, error) {
					return &Result{Content: []Content{{Type: "image", Text: "x"}}}, nil
				}
		},
	)
	h := startHarness(t, srv, true)
	cs := h.client("")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "panics"})
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "kaboom") {
		t.Fatalf("panicking tool = %v, %v; want an error result naming the panic", res, err)
	}
	callEcho(t, cs, "still alive after a panic")

	cases := []struct {
		tool     string
		wantCode int64
	}{
		{"fails", jsonrpc.CodeInternalError},
		{"coded", jsonrpc.CodeInvalidParams},
		{"image", jsonrpc.CodeInternalError},
	}
	for _, tc := range cases {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool})
		var wire *jsonrpc.Error
		if !errors.As(err, &wire) || wire.Code != tc.wantCode {
			t.Errorf("%s: error = %v, want a JSON-RPC error with code %d", tc.tool, err, tc.wantCode)
		}
	}
	callEcho(t, cs, "still alive after errors")
}

func TestCallsRunConcurrently(t *testing.T) {
	arrived := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	other := map[string]string{"a": "b", "b": "a"}
	rendezvous := func(name string) func() (Tool, Handler) {
		return func() (Tool, Handler) {
			return Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, _ json.RawMessage) (*Result, error) {
					close(arrived[name])
					select {
					case <-arrived[other[name]]:
						return &Result{Content: []Content{{Text: name + " met " + other[name]}}}, nil
					case <-time.After(3 * time.Second):
						return &Result{IsError: true, Content: []Content{{Text: name + " waited alone: calls are serialized"}}}, nil
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
		}
	}
	srv := newServer(t, Options{}, rendezvous("a"), rendezvous("b"))
	h := startHarness(t, srv, true)
	cs := h.client("")
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b"} {
		wg.Go(func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name})
			if err != nil || res.IsError {
				t.Errorf("%s: %v %v", name, textOf(res), err)
			}
		})
	}
	wg.Wait()
}

// blocker is a tool whose handler blocks until its context is cancelled,
// reporting when it started and when it saw the cancellation.
type blocker struct {
	started, sawDone chan struct{}
}

func newBlocker() *blocker {
	return &blocker{started: make(chan struct{}), sawDone: make(chan struct{})}
}

func (b *blocker) tool() (Tool, Handler) {
	return Tool{Name: "block", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ json.RawMessage) (*Result, error) {
			close(b.started)
			<-ctx.Done()
			close(b.sawDone)
			return nil, ctx.Err()
		}
}

func (b *blocker) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-b.started:
	case <-time.After(5 * time.Second):
		t.Fatal("the blocking tool call never started")
	}
}

func TestEOFEndsServeWithCallInFlight(t *testing.T) {
	base := runtime.NumGoroutine()
	b := newBlocker()
	srv := newServer(t, Options{}, b.tool)
	h := startHarness(t, srv, false)
	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":"raw-1","method":"tools/call","params":{"name":"block"}}`)
	b.waitStarted(t)

	closed := time.Now()
	_ = h.in.Close()
	err, ok := h.wait(time.Second)
	if !ok {
		t.Fatal("Serve did not return within 1s of EOF with a call in flight")
	}
	if err != nil {
		t.Fatalf("Serve after EOF = %v, want nil", err)
	}
	select {
	case <-b.sawDone:
	default:
		t.Fatal("the in-flight handler's context was not cancelled")
	}
	t.Logf("Serve returned %v after EOF", time.Since(closed))
	settleGoroutines(t, base)
}

func TestCancelEndsServeWithCallInFlight(t *testing.T) {
	base := runtime.NumGoroutine()
	b := newBlocker()
	srv := newServer(t, Options{}, b.tool)
	serverEnd, clientEnd := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, serverEnd, serverEnd) }()

	raw := newRawConn(t, clientEnd)
	raw.initialize()
	raw.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`)
	b.waitStarted(t)

	cancelled := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve after cancel = %v, want nil", err)
		}
	case <-time.After(time.Second):
		t.Fatal("Serve did not return within 1s of cancellation with a call in flight")
	}
	t.Logf("Serve returned %v after cancel", time.Since(cancelled))
	select {
	case <-b.sawDone:
	default:
		t.Fatal("the in-flight handler's context was not cancelled")
	}
	_ = clientEnd.Close()
	raw.drained()
	settleGoroutines(t, base)
}

func TestHandlerIgnoringCancellationIsBounded(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	srv := newServer(t, Options{ShutdownTimeout: 200 * time.Millisecond}, func() (Tool, Handler) {
		return Tool{Name: "stubborn", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, json.RawMessage) (*Result, error) {
				close(started)
				<-release
				return nil, nil
			}
	})
	defer close(release)
	h := startHarness(t, srv, false)
	h.initialize("2025-11-25")
	h.send(`{"jsonrpc":"2.0","id":"raw-1","method":"tools/call","params":{"name":"stubborn"}}`)
	<-started
	_ = h.in.Close()
	err, ok := h.wait(2 * time.Second)
	if !ok {
		t.Fatal("Serve did not return although its shutdown timeout is 200ms")
	}
	if err == nil || !strings.Contains(err.Error(), "1 tool call(s) still running") {
		t.Fatalf("Serve = %v, want an error naming the stuck call", err)
	}
}

func TestServeWithCancelledContextReturns(t *testing.T) {
	srv := newServer(t, Options{}, echo)
	serverEnd, clientEnd := net.Pipe()
	defer clientEnd.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, serverEnd, serverEnd) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve = %v, want nil", err)
		}
	case <-time.After(time.Second):
		t.Fatal("Serve with an already cancelled context did not return")
	}
}

func TestEOFWithoutCallsReturnsNilAtOnce(t *testing.T) {
	srv := newServer(t, Options{}, echo)
	// Repeated: a session that ends on its own while Serve also sees the EOF
	// must never be taken for one with a stuck call.
	for i := range 20 {
		h := startHarness(t, srv, false)
		h.initialize("2025-11-25")
		_ = h.in.Close()
		err, ok := h.wait(time.Second)
		if !ok || err != nil {
			t.Fatalf("run %d: Serve after EOF = %v (returned: %v), want nil within 1s", i, err, ok)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("stdout closed") }

func TestWriteFailureEndsServe(t *testing.T) {
	cases := []struct{ name, line string }{
		{"SDK answer", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`},
		{"filter answer", "not json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, Options{}, echo)
			inR, inW := io.Pipe()
			defer inW.Close()
			done := make(chan error, 1)
			go func() { done <- srv.Serve(context.Background(), inR, failingWriter{}) }()
			if _, err := io.WriteString(inW, tc.line+"\n"); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "stdout closed") {
					t.Fatalf("Serve = %v, want the write error", err)
				}
			case <-time.After(2 * time.Second):
				t.Fatal("Serve kept running although its output is broken")
			}
		})
	}
}

// TestEOFAnswersWhatWasAskedBefore: a client that writes its requests and closes its input at
// once gets every answer to what it asked before. The SDK alone ends the session on the EOF and
// answered some, none or all of them, initialize included; repeated, since that depended on the
// scheduler. A tool call in flight is cancelled, not waited for (the blocking tool returns only
// when cancelled); whether its cancellation is answered is left open, but never as a success.
func TestEOFAnswersWhatWasAskedBefore(t *testing.T) {
	input := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":4,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"block"}}`,
	}, "\n") + "\n"
	for i := range 20 {
		srv := newServer(t, Options{}, echo, newBlocker().tool)
		w := &lockedBuffer{}
		start := time.Now()
		if err := srv.Serve(context.Background(), strings.NewReader(input), w); err != nil {
			t.Fatalf("run %d: Serve = %v", i, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("run %d: Serve took %v after EOF: it waited for the tool call", i, d)
		}
		ids := map[float64]bool{}
		for _, line := range strings.Split(strings.TrimSpace(w.String()), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) != nil {
				continue
			}
			id, _ := m["id"].(float64)
			ids[id] = true
			if res, _ := m["result"].(map[string]any); id == 5 && res != nil && res["isError"] != true {
				t.Fatalf("run %d: the cancelled call was answered as a success: %s", i, line)
			}
		}
		if !ids[1] || !ids[2] || !ids[3] || !ids[4] {
			t.Fatalf("run %d: answered ids %v, want 1 to 4:\n%s", i, ids, w.String())
		}
	}
}
