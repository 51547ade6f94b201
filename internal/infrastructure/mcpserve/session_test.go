package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
)

// lineClient talks newline JSON to a session over pipes, line by line.
type lineClient struct {
	t     *testing.T
	sends chan string
	lines chan map[string]any
}

// startSession starts a session on pipes and performs its initialize, before any tool exists.
// outW is the session's output, for a test that ends it.
func startSession(t *testing.T, ctx context.Context) (s *Session, c *lineClient, inW, outW *io.PipeWriter) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s = Start(ctx, "test", inR, outW)
	c = &lineClient{t: t, sends: make(chan string, 16), lines: make(chan map[string]any, 16)}
	// One writer, so that lines arrive in the order sent; the pipe has no buffer, so a line
	// the session does not read yet (held) blocks only this goroutine.
	go func() {
		for line := range c.sends {
			if _, err := io.WriteString(inW, line+"\n"); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		close(c.sends)
		_ = inR.Close() // a write still blocked on a held line returns
		_ = outR.Close()
	})
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				c.lines <- m
			}
		}
	}()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := c.next(5 * time.Second); m == nil || m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize before the tools: %v", m)
	}
	return s, c, inW, outW
}

// send queues a line for the session.
func (c *lineClient) send(line string) { c.sends <- line }

// next is the next answer within d, or nil when the session wrote nothing or ended.
func (c *lineClient) next(d time.Duration) map[string]any {
	select {
	case m := <-c.lines:
		return m
	case <-time.After(d):
		return nil
	}
}

// TestSessionAnswersTheHandshakeBeforeItsTools: a started session answers initialize with no
// tools built yet, holds tools/list until Serve has added them, and has written the ready file
// when Serve returns.
func TestSessionAnswersTheHandshakeBeforeItsTools(t *testing.T) {
	root, run := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, c, inW, _ := startSession(t, ctx)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if m := c.next(150 * time.Millisecond); m != nil {
		t.Fatalf("answered before the tools were built: %v", m)
	}
	ready := filepath.Join(run, "ready.json")
	cfg := toolset.Spec{Root: root, Builtins: true, Intent: toolset.DefaultIntent(), ReadyFile: ready,
		Sandbox: toolset.Sandbox{Mode: "off"}}
	var begun, ended, searched atomic.Int32
	deps := Deps{BeginCall: func() func() { begun.Add(1); return func() { ended.Add(1) } },
		BeginFanOut: func() func() { searched.Add(1); return func() { ended.Add(1) } }}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, cfg, deps) }()
	m := c.next(5 * time.Second)
	tools, _ := m["result"].(map[string]any)["tools"].([]any)
	if m["id"] != float64(2) || len(tools) != 6 {
		t.Fatalf("tools/list after Serve: %v", m)
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"Read","arguments":{"file_path":"a.txt"}}}`)
	if m := c.next(5 * time.Second); m["id"] != float64(3) || m["result"] == nil {
		t.Fatalf("tools/call: %v", m)
	}
	if begun.Load() != 1 || ended.Load() != 1 {
		t.Fatalf("BeginCall around one call: begun %d, ended %d", begun.Load(), ended.Load())
	}
	c.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"Glob","arguments":{"pattern":"*.txt"}}}`)
	if m := c.next(5 * time.Second); m["id"] != float64(4) || m["result"] == nil {
		t.Fatalf("Glob: %v", m)
	}
	if begun.Load() != 2 || searched.Load() != 1 || ended.Load() != 3 {
		t.Fatalf("a Glob begins with BeginCall and BeginFanOut: begun %d, fanned out %d, ended %d", begun.Load(), searched.Load(), ended.Load())
	}
	_ = inW.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve after EOF: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after EOF")
	}
	rec, err := (Handoff{}).ReadReady(ctx, ready)
	if err != nil || rec.PID != os.Getpid() || len(rec.Tools) != 6 {
		t.Fatalf("ready record once Serve has returned: %+v, %v", rec, err)
	}
}

// TestSessionEndsWhenTheReadyFileCannotBeWritten: the tools are released before the ready file
// is written; a write that fails ends the session with the error, so that the step, which finds
// no ready file, fails for want of the proxy instead of running on with a server it cannot see.
func TestSessionEndsWhenTheReadyFileCannotBeWritten(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, c, _, _ := startSession(t, ctx)
	cfg := toolset.Spec{Root: t.TempDir(), Builtins: true, Intent: toolset.DefaultIntent(),
		ReadyFile: filepath.Join(t.TempDir(), "missing", "ready.json"), Sandbox: toolset.Sandbox{Mode: "off"}}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, cfg, Deps{}) }()
	select {
	case err := <-served:
		if fault.CodeOf(err) != fault.SystemMCPServeStart || !strings.Contains(err.Error(), "ready file") {
			t.Fatalf("Serve with an unwritable ready file: %v (code %q)", err, fault.CodeOf(err))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve went on serving without its ready file")
	}
	stacks := make([]byte, 1<<20)
	if n := runtime.Stack(stacks, true); bytes.Contains(stacks[:n], []byte("mcpserver.(*Server).Serve(")) {
		t.Fatalf("the session still runs after a failed Serve:\n%s", stacks[:n])
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if m := c.next(200 * time.Millisecond); m != nil {
		t.Fatalf("answered after the session ended: %v", m)
	}
}

// TestSessionAbortsWhenTheToolsCannotBeBuilt: a session whose tools fail to build returns the
// error, leaves the held tools/list unanswered and writes no ready file.
func TestSessionAbortsWhenTheToolsCannotBeBuilt(t *testing.T) {
	run := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, c, _, outW := startSession(t, ctx)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	ready := filepath.Join(run, "ready.json")
	cfg := toolset.Spec{Root: filepath.Join(run, "missing"), Builtins: true, Intent: toolset.DefaultIntent(), ReadyFile: ready,
		Sandbox: toolset.Sandbox{Mode: "off"}}
	err := s.Serve(ctx, cfg, Deps{})
	if fault.CodeOf(err) != fault.UserMCPServeConfig {
		t.Fatalf("Serve with a missing root: %v (code %q)", err, fault.CodeOf(err))
	}
	// Abort's promise: the session's goroutines are gone when Serve has returned.
	stacks := make([]byte, 1<<20)
	if n := runtime.Stack(stacks, true); bytes.Contains(stacks[:n], []byte("mcpserver.(*Server).Serve(")) {
		t.Fatalf("the session still runs after a failed Serve:\n%s", stacks[:n])
	}
	_ = outW.Close()
	for m := c.next(time.Second); m != nil; m = c.next(time.Second) {
		if m["id"] == float64(2) {
			t.Fatalf("the held tools/list was answered without tools: %v", m)
		}
	}
	if _, err := os.Stat(ready); !os.IsNotExist(err) {
		t.Fatalf("ready file after a failed start: %v", err)
	}
	s.Abort() // after Serve: does nothing, and does not block
}

var readOnly = true

// echoProvider is a plugin provider with one tool, echo, that returns its arguments.
type echoProvider struct{ closed atomic.Bool }

func (p *echoProvider) ListTools(context.Context) ([]tool.Definition, error) {
	return []tool.Definition{{Name: "fake_echo", Description: "echoes", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: tool.Annotations{ReadOnlyHint: &readOnly}, Source: tool.PluginSource("fake")}}, nil
}

func (p *echoProvider) CallTool(_ context.Context, _ string, args json.RawMessage) (tool.Result, error) {
	return tool.Result{Content: []tool.Content{{Type: "text", Text: string(args)}}}, nil
}

func (p *echoProvider) Close() error { p.closed.Store(true); return nil }

// TestServeBuildsPluginToolsBeforeReading: a step with plugin tools is built before anything is
// read (no held session): its tools are listed at once, a call is recorded with the turn, the
// ready file names them, and the router closes the providers when the input ends.
func TestServeBuildsPluginToolsBeforeReading(t *testing.T) {
	run := t.TempDir()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &echoProvider{}
	cfg := toolset.Spec{Root: t.TempDir(), Intent: toolset.DefaultIntent(), ReadyFile: filepath.Join(run, "ready.json"),
		ActivityFile: filepath.Join(run, "activity.jsonl"), PluginTools: []toolset.PluginTools{{Plugin: "fake", Expose: []string{"*"}}}}
	served := make(chan error, 1)
	go func() {
		served <- Serve(context.Background(), cfg, Deps{Providers: []ports.ToolProvider{p}, Turn: 3}, inR, outW)
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	ask := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil && m["id"] != nil {
				return m
			}
		}
		t.Fatalf("no answer to %s", line)
		return nil
	}
	ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if rec, err := (Handoff{}).ReadReady(context.Background(), cfg.ReadyFile); err != nil || len(rec.Tools) != 1 || rec.Tools[0] != "fake_echo" {
		t.Fatalf("ready record once initialized: %+v, %v", rec, err)
	}
	_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if m := ask(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fake_echo","arguments":{"x":1}}}`); m["result"] == nil {
		t.Fatalf("tools/call: %v", m)
	}
	data, err := os.ReadFile(cfg.ActivityFile)
	if err != nil || !strings.Contains(string(data), `"tool":"fake_echo"`) || !strings.Contains(string(data), `"turn":3`) {
		t.Fatalf("activity record of the call (with its turn): %s, %v", data, err)
	}
	_ = inW.Close()
	if err := <-served; err != nil {
		t.Fatalf("Serve at EOF: %v", err)
	}
	if !p.closed.Load() {
		t.Fatal("the providers were not closed with the router")
	}
}
