package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// harness serves one session over io.Pipe pairs. The server's output passes
// through a router: in client mode, answers meant for raw lines written by the
// test (id null, or a string id starting with "raw-") go to the raw channel
// and everything else to the SDK client, which would itself give up on an
// answer with a null id; in raw mode everything goes to the raw channel.
type harness struct {
	t       *testing.T
	in      *io.PipeWriter // the server's input, shared by the test and the client
	clientR *io.PipeReader // the server's output as seen by the SDK client
	raw     chan map[string]any
	out     *wholeLineWriter
	cancel  context.CancelFunc

	done   chan struct{} // closed when Serve has returned
	result error         // Serve's result, set before done is closed
}

func startHarness(t *testing.T, srv *Server, clientMode bool) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	clientR, clientW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{
		t: t, in: inW, clientR: clientR, raw: make(chan map[string]any, 64),
		out: &wholeLineWriter{w: outW}, cancel: cancel, done: make(chan struct{}),
	}
	go func() {
		h.result = srv.Serve(ctx, inR, h.out)
		_ = outW.Close()
		_ = inR.Close()
		close(h.done)
	}()
	go h.route(outR, clientW, clientMode)
	t.Cleanup(func() {
		_ = inW.Close()
		cancel()
		if _, ok := h.wait(5 * time.Second); !ok {
			t.Error("Serve did not return within 5s of cleanup")
		}
		if n := h.out.violations(); n != 0 {
			t.Errorf("%d writes to the client were not exactly one whole line", n)
		}
	})
	return h
}

func (h *harness) route(outR *io.PipeReader, clientW *io.PipeWriter, clientMode bool) {
	defer clientW.Close()
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			h.t.Errorf("server wrote a line that is not JSON: %q", sc.Text())
			continue
		}
		if !clientMode || isRawAnswer(m) {
			h.raw <- m
			continue
		}
		if _, err := clientW.Write(append(bytes.Clone(sc.Bytes()), '\n')); err != nil {
			// The client is gone; keep draining so the server never blocks.
			continue
		}
	}
}

func isRawAnswer(m map[string]any) bool {
	id, has := m["id"]
	if !has {
		return false
	}
	s, isString := id.(string)
	return id == nil || isString && strings.HasPrefix(s, "raw-")
}

// wait returns Serve's result, or false if Serve did not return within d.
func (h *harness) wait(d time.Duration) (error, bool) {
	select {
	case <-h.done:
		return h.result, true
	case <-time.After(d):
		return nil, false
	}
}

// send writes one raw line to the server.
func (h *harness) send(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, line+"\n"); err != nil {
		h.t.Fatalf("writing %q to the server: %v", line, err)
	}
}

// expect returns the next raw answer, skipping notifications.
func (h *harness) expect() map[string]any {
	h.t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case m := <-h.raw:
			if _, ok := m["id"]; !ok {
				continue
			}
			return m
		case <-timeout:
			h.t.Fatal("no answer from the server within 5s")
			return nil
		}
	}
}

// initialize performs the legacy handshake with raw lines and returns the
// initialize result.
func (h *harness) initialize(version string) map[string]any {
	h.t.Helper()
	h.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"raw-init","method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, version))
	resp := h.expect()
	result, ok := resp["result"].(map[string]any)
	if !ok {
		h.t.Fatalf("initialize failed: %v", resp)
	}
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return result
}

// client connects an SDK client; version "" uses the SDK's default.
func (h *harness) client(version string) *mcp.ClientSession {
	h.t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: h.clientR, Writer: h.in}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		h.t.Fatalf("client connect: %v", err)
	}
	h.t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// wholeLineWriter counts writes that are not exactly one newline-terminated
// line, which would mean two writers could interleave inside a line.
type wholeLineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	bad int
}

func (w *wholeLineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if len(p) == 0 || p[len(p)-1] != '\n' || bytes.Count(p, []byte("\n")) != 1 {
		w.bad++
	}
	w.mu.Unlock()
	return w.w.Write(p)
}

func (w *wholeLineWriter) violations() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.bad
}

// echo is a tool that returns its "text" argument.
func echo() (Tool, Handler) {
	return Tool{
			Name:        "echo",
			Description: "Returns its text argument.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
			Annotations: &Annotations{ReadOnlyHint: ptr(true)},
		}, func(_ context.Context, args json.RawMessage) (*Result, error) {
			var in struct{ Text string }
			if err := json.Unmarshal(args, &in); err != nil {
				return &Result{IsError: true, Content: []Content{{Type: "text", Text: "bad arguments: " + err.Error()}}}, nil
			}
			return &Result{Content: []Content{{Type: "text", Text: in.Text}}}, nil
		}
}

func ptr[T any](v T) *T { return &v }

// newServer is a server of the suite's accelerators (see runBothWays), unless opts names some,
// with tools added.
func newServer(t *testing.T, opts Options, tools ...func() (Tool, Handler)) *Server {
	t.Helper()
	srv := newSrv(opts)
	for _, f := range tools {
		if err := srv.AddTool(f()); err != nil {
			t.Fatalf("AddTool: %v", err)
		}
	}
	return srv
}

// callEcho calls echo through cs and checks the answer.
func callEcho(t *testing.T, cs *mcp.ClientSession, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": text}})
	if err != nil {
		t.Fatalf("CallTool(echo): %v", err)
	}
	if got := textOf(res); res.IsError || got != text {
		t.Fatalf("CallTool(echo) = %q (isError %v), want %q", got, res.IsError, text)
	}
}

func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// settleGoroutines waits until the goroutine count is back to at most base.
func settleGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines leaked: %d running, %d before\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// rawConn speaks raw JSON-RPC lines over the client end of a net.Pipe.
type rawConn struct {
	t        *testing.T
	c        net.Conn
	lines    chan map[string]any
	readDone chan struct{}
}

func newRawConn(t *testing.T, c net.Conn) *rawConn {
	r := &rawConn{t: t, c: c, lines: make(chan map[string]any, 64), readDone: make(chan struct{})}
	go func() {
		defer close(r.readDone)
		sc := bufio.NewScanner(c)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				select {
				case r.lines <- m:
				default: // nobody is listening any more; keep draining
				}
			}
		}
	}()
	return r
}

func (r *rawConn) send(line string) {
	r.t.Helper()
	_ = r.c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(r.c, line+"\n"); err != nil {
		r.t.Fatalf("writing %q: %v", line, err)
	}
}

func (r *rawConn) initialize() {
	r.t.Helper()
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	select {
	case m := <-r.lines:
		if m["result"] == nil {
			r.t.Fatalf("initialize failed: %v", m)
		}
	case <-time.After(5 * time.Second):
		r.t.Fatal("no initialize answer within 5s")
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// drained waits for the reader goroutine to see the pipe closed.
func (r *rawConn) drained() {
	r.t.Helper()
	select {
	case <-r.readDone:
	case <-time.After(5 * time.Second):
		r.t.Fatal("raw reader did not end")
	}
}

// lockedBuffer is a bytes.Buffer safe to read while a child's stderr is copied into it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
