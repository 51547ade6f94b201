package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/awf-dev/awf/pkg/mcpserver/internal/direct"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// DefaultMaxLineBytes is the default limit on one input line, the same
	// as the SDK's own default frame limit.
	DefaultMaxLineBytes = mcp.DefaultMaxLineLength
	// DefaultShutdownTimeout is the default time Serve waits, once the session
	// has ended, for cancelled tool calls to return.
	DefaultShutdownTimeout = 3 * time.Second
	// readerExitWait bounds how long Serve waits for its reader goroutine
	// after the session ended; only a reader blocked in a Read that cannot be
	// interrupted takes that long.
	readerExitWait = 100 * time.Millisecond
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// Name and Version identify the server to the client ("serverInfo").
	Name    string
	Version string
	// Instructions are sent to the client at initialization, for the model.
	Instructions string
	// Logger receives diagnostics: rejected input lines, handler panics, the
	// SDK's own session events. nil discards them. Never log to stdout: it
	// carries the protocol.
	Logger *slog.Logger
	// MaxLineBytes limits one input line; a longer line is discarded unread
	// and answered with an Invalid Request error. 0 means DefaultMaxLineBytes.
	MaxLineBytes int
	// ShutdownTimeout bounds how long Serve waits, after the session ended,
	// for cancelled tool calls that ignore their context. 0 means
	// DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// Accelerators switches on shortcuts beside the SDK's own path (see Accelerators). The zero
	// value serves every message through the SDK alone, the reference path.
	Accelerators Accelerators
}

// Server is an MCP server offering tools over a newline-delimited JSON-RPC
// stream. Create it with New, add tools, then call Serve or ServeStdio.
type Server struct {
	sdk      *mcp.Server
	logger   *slog.Logger
	maxLine  int
	shutdown time.Duration

	mu       sync.Mutex
	tools    map[string]Handler // by name: the tools added, which the direct path may run
	fallback FallbackHandler
	// toolsGen counts the tools added: a session's client that listed the tools since the last
	// one was added is not told the list changed (see conn.Write).
	toolsGen atomic.Int64
	// held, while Hold's release has not run, is closed by it: sessions started meanwhile
	// wait on it before any message but initialize.
	held chan struct{}

	// direct is the direct tools/call path (AccelDirect); nil serves every call through the SDK.
	direct *direct.Server

	inFlight atomic.Int64 // tool calls currently running, across sessions
}

// New returns a Server without tools.
func New(opts Options) *Server {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	maxLine := opts.MaxLineBytes
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	shutdown := opts.ShutdownTimeout
	if shutdown <= 0 {
		shutdown = DefaultShutdownTimeout
	}
	name := opts.Name
	if name == "" {
		name = "mcpserver"
	}
	impl := &mcp.Implementation{Name: name, Version: opts.Version}
	sdk := mcp.NewServer(impl, &mcp.ServerOptions{
		Instructions: opts.Instructions,
		Logger:       logger,
		// Only tools are offered; without this the SDK also advertises
		// logging, which this server never sends.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
	})
	s := &Server{sdk: sdk, logger: logger, maxLine: maxLine, shutdown: shutdown, tools: map[string]Handler{}}
	s.accelerate(opts.Accelerators, impl)
	sdk.AddReceivingMiddleware(s.toolsMiddleware)
	return s
}

// AddTool registers a tool. It fails on an invalid name, a schema that is not
// a JSON object of type "object", a nil handler, or a name already added. A
// tool added while a session is running is announced to its client.
func (s *Server) AddTool(t Tool, h Handler) (err error) {
	if h == nil {
		return fmt.Errorf("tool %q: handler is nil", t.Name)
	}
	if err := validateTool(t); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.tools[t.Name]; dup {
		return fmt.Errorf("tool %q is already registered; tool names must be unique", t.Name)
	}
	if err := s.toSDK(sdkTool(t), h); err != nil {
		return err
	}
	s.tools[t.Name] = h
	s.toolsGen.Add(1)
	return nil
}

// Hold lets a server start reading its client before it has added its tools. Sessions that
// Serve starts from now on answer initialize at once and hold every other message, in order,
// until release is called: the client's handshake overlaps the building of the tools (for a
// server spawned per agent step, about as long as each other), and its first tools/list sees
// every tool. Tools added before release are not announced: no client has listed tools yet
// (see conn.Write). release may be called more than once.
func (s *Server) Hold() (release func()) {
	ch := make(chan struct{})
	s.mu.Lock()
	s.held = ch
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			if s.held == ch {
				s.held = nil
			}
			s.mu.Unlock()
			close(ch)
		})
	}
}

// wrap adapts h to the SDK's low-level handler: raw arguments in, no SDK-side
// validation, panics turned into error results.
func (s *Server) wrap(name string, h Handler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := json.RawMessage(`{}`)
		if req.Params != nil && len(req.Params.Arguments) > 0 && string(req.Params.Arguments) != "null" {
			args = req.Params.Arguments
		}
		return s.run(withProgress(ctx, req), name, h, args)
	}
}

// run calls h and converts its result for the SDK, as both paths answer it.
func (s *Server) run(ctx context.Context, name string, h Handler, args json.RawMessage) (*mcp.CallToolResult, error) {
	res, err := s.invoke(ctx, name, h, args)
	if err != nil {
		return nil, rpcError(err)
	}
	return sdkResult(name, res)
}

// invoke calls h, recovering a panic into an error result: one faulty tool
// must not take the server, and every other tool, down with it.
func (s *Server) invoke(ctx context.Context, name string, h Handler, args json.RawMessage) (res *Result, err error) {
	s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	defer func() {
		if p := recover(); p != nil {
			s.logger.Error("mcpserver: tool handler panicked", "tool", name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res = &Result{IsError: true, Content: []Content{{Type: "text", Text: fmt.Sprintf(
				"tool %q failed with an internal error (panic: %v); this is a bug in the tool, retrying with the same arguments will fail again", name, p)}}}
			err = nil
		}
	}()
	return h(ctx, args)
}

// ServeStdio serves one session over os.Stdin and os.Stdout, as an MCP
// server spawned by its client does. See Serve.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.Serve(ctx, os.Stdin, os.Stdout)
}

// Serve serves one MCP session: newline-delimited JSON-RPC messages read from
// r, answers written to w. Malformed lines are answered with JSON-RPC errors
// and skipped; they never end the session.
//
// Serve returns when r reaches EOF or ctx is cancelled, after cancelling the
// context of every tool call in flight and waiting for those calls to return
// (at most Options.ShutdownTimeout). At EOF it first writes the answers it
// owes to the other requests read before it (initialize, tools/list, ping: at
// most two seconds), so a client may write its requests and close its input. It returns nil in both cases, an error
// when reading or writing fails, when the SDK cannot start the session, or
// when cancelled calls did not return in time (their goroutines are then
// left running). If r has a SetReadDeadline method (os.Pipe ends, net.Conn),
// Serve sets an expired deadline on return to release its reader; otherwise
// a reader blocked in r.Read after cancellation stays blocked until r
// returns, and then exits without handling what it read.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	if r == io.Reader(os.Stdin) {
		if in, ok := pollableStdin(); ok {
			defer func() { _ = in.Close() }()
			r = in
		}
	}
	d := s.direct.Open(ctx)
	defer d.Stop(io.EOF)
	c := newConn(r, w, s.maxLine, ctx.Done(), s.logger, d)
	c.toolsGen = &s.toolsGen
	s.mu.Lock()
	c.held = s.held
	s.mu.Unlock()

	session, err := s.sdk.Connect(ctx, transport{conn: c}, nil)
	if err != nil {
		c.Close()
		return fmt.Errorf("mcpserver: starting the MCP session: %w", err)
	}
	d.SetSession(session)
	// The reader starts once the session is known: started before, it could hand the SDK an
	// initialize that was answered before the session was stored, and the direct path, which
	// needs the session, then left the client's first calls to the SDK.
	go c.readLoop()
	defer s.releaseReader(c)
	waited := make(chan error, 1)
	go func() {
		err := session.Wait()
		d.Wait() // the direct calls end with the session, as the SDK's do
		waited <- err
	}()

	finished := false
	select {
	case err = <-waited:
		finished = true
	case <-ctx.Done():
	case <-c.ended:
	}
	if !finished {
		// The session is ending: its reader has stopped, so the SDK has
		// cancelled every call in flight. Give them time to return.
		timer := time.NewTimer(s.shutdown)
		defer timer.Stop()
		select {
		case err = <-waited:
		case <-timer.C:
			c.Close()
			return fmt.Errorf("mcpserver: %d tool call(s) still running %s after the session ended; their handlers ignore context cancellation",
				s.inFlight.Load(), s.shutdown)
		}
	}
	return sessionError(err)
}

// releaseReader closes the connection and waits briefly for its reader
// goroutine, so a finished Serve leaves no goroutine behind when r is at EOF
// or can be interrupted.
func (s *Server) releaseReader(c *conn) {
	c.Close()
	select {
	case <-c.readerDone:
	case <-time.After(readerExitWait):
		s.logger.Debug("mcpserver: input reader still blocked after the session ended; it exits when the input returns")
	}
}

// sessionError maps how the session ended to Serve's result: the expected
// ends (input EOF, cancelled context) are not errors.
func sessionError(err error) error {
	switch {
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, errStopped):
		return nil
	default:
		return fmt.Errorf("mcpserver: session ended: %w", err)
	}
}
