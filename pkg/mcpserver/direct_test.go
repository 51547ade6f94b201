package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawSession is a session driven with raw lines, its answers read line by line.
type rawSession struct {
	t    *testing.T
	srv  *Server
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startRaw(t *testing.T, srv *Server) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := &rawSession{t: t, srv: srv, in: inW, out: bufio.NewReaderSize(outR, 1<<20), done: make(chan error, 1)}
	go func() { s.done <- srv.Serve(ctx, inR, outW); _ = outW.Close() }()
	t.Cleanup(func() {
		_ = inW.Close()
		cancel()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return s
}

func (s *rawSession) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

func (s *rawSession) next() string {
	s.t.Helper()
	line, err := readLineWithin(s.out, 5*time.Second)
	if err != nil {
		s.t.Fatalf("%v (direct calls so far: %d)", err, s.srv.directCalls())
	}
	return line
}

// blockingTools are a tool that blocks until its call is cancelled, then answers with what
// its context said, and echo.
func blockingTools(started chan<- string) []func() (Tool, Handler) {
	obj := json.RawMessage(`{"type":"object"}`)
	return []func() (Tool, Handler){
		func() (Tool, Handler) {
			return Tool{Name: "block", InputSchema: obj}, func(ctx context.Context, args json.RawMessage) (*Result, error) {
				started <- string(args)
				<-ctx.Done()
				return nil, ctx.Err()
			}
		},
		func() (Tool, Handler) {
			return Tool{Name: "echo", InputSchema: obj}, func(_ context.Context, args json.RawMessage) (*Result, error) {
				return &Result{Content: []Content{{Text: string(args)}}}, nil
			}
		},
	}
}

// TestDirectCancelAndDuplicateIDMatchTheSDK runs the same exchange with the direct path on and
// off: a blocked call, two more requests under its id (dropped, as jsonrpc2 drops them), its
// cancellation by notifications/cancelled, and a call that reuses the id afterwards.
func TestDirectCancelAndDuplicateIDMatchTheSDK(t *testing.T) {
	transcript := func(direct bool) []string {
		started := make(chan string, 4)
		accel := Accelerators(0)
		if direct {
			accel = AccelDirect
		}
		srv := New(Options{Accelerators: accel})
		for _, f := range blockingTools(started) {
			if err := srv.AddTool(f()); err != nil {
				t.Fatal(err)
			}
		}
		s := startRaw(t, srv)
		var got []string
		s.send(legacyInit)
		got = append(got, s.next())
		s.send(initialized)
		s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"block","arguments":{"n":1}}}`)
		<-started
		// Both requests under the id in use are dropped without an answer.
		s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"n":2}}}`)
		s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`)
		s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}}`)
		got = append(got, s.next())
		s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"n":3}}}`)
		got = append(got, s.next())
		if direct != (srv.directCalls() == 2) {
			t.Errorf("direct %v: %d direct calls", direct, srv.directCalls())
		}
		return got
	}
	sdk, direct := transcript(false), transcript(true)
	if !slices.Equal(sdk, direct) {
		t.Fatalf("the direct path answers\n%s\nthe SDK answers\n%s", strings.Join(direct, ""), strings.Join(sdk, ""))
	}
	if len(sdk) != 3 || !strings.Contains(sdk[1], `"id":5,"error":{"code":-32603,"message":"context canceled"}`) || !strings.Contains(sdk[2], `{\"n\":3}`) {
		t.Fatalf("unexpected answers:\n%s", strings.Join(sdk, ""))
	}
}

// TestDirectCallsEndWithTheInput: EOF cancels a direct call in flight and Serve waits for it
// and writes its answer (the SDK's own path may drop it).
func TestDirectCallsEndWithTheInput(t *testing.T) {
	started := make(chan string, 1)
	srv := newServer(t, Options{Accelerators: AccelDirect}, blockingTools(started)...)
	s := startRaw(t, srv)
	s.send(legacyInit)
	s.next()
	s.send(initialized)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`)
	<-started
	_ = s.in.Close()
	if line := s.next(); !strings.Contains(line, `"id":1,"error":{"code":-32603,"message":"context canceled"}`) {
		t.Fatalf("answer after EOF: %s", line)
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatal(err)
		}
		s.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after EOF")
	}
	if srv.directCalls() != 1 {
		t.Fatalf("%d direct calls, want 1", srv.directCalls())
	}
}

// TestDirectPathServesTheSDKClient: a go-sdk client (protocol 2026-07-28, per-request _meta)
// gets its calls answered, on the direct path when it is on, once its discover taught the server
// its _meta.
func TestDirectPathServesTheSDKClient(t *testing.T) {
	srv := newServer(t, Options{}, echo)
	h := startHarness(t, srv, true)
	cs := h.client("")
	for range 3 {
		callEcho(t, cs, "x <&> \u2028")
	}
	if n := srv.directCalls(); n != directWant(3) {
		t.Fatalf("%d of 3 calls took the direct path, want %d", n, directWant(3))
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "y"}, Meta: mcp.Meta{"progressToken": "p"}})
	if err != nil || textOf(res) != "y" || srv.directCalls() != directWant(3) {
		t.Fatalf("a call with a progress token: %v %v, %d direct calls", textOf(res), err, srv.directCalls())
	}
}
