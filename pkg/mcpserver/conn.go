package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/awf-dev/awf/pkg/mcpserver/internal/direct"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errStopped ends the session when the context given to Serve is cancelled.
var errStopped = errors.New("mcpserver: serve context cancelled")

// lineWriter serializes every write to the client. Both the SDK (responses,
// notifications) and the line filter (error responses) write through it,
// each message as a single Write of one whole line, so lines never interleave.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (lw *lineWriter) writeLine(data []byte) error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	_, err := lw.w.Write(data)
	return err
}

// conn is the mcp.Connection the SDK session runs on. A reader goroutine
// splits the input into lines, answers bad lines itself and passes decoded
// messages on through incoming; Write encodes each SDK message as one line.
type conn struct {
	r      io.Reader
	out    *lineWriter
	direct *direct.Path // tools/call beside the SDK (AccelDirect); nil without it
	lines  *lineReader
	limit  int

	// toolsGen is the server's count of tools added; listedGen its value when the client last
	// asked for the tools, -1 before it asked (see Write).
	toolsGen  *atomic.Int64
	listedGen atomic.Int64
	logger    *slog.Logger
	stop      <-chan struct{} // the Serve context's Done channel
	// held, when not nil, is Server.Hold's channel: from the first message about tools on,
	// every message waits for it to close.
	held <-chan struct{}

	incoming   chan jsonrpc.Message
	readerDone chan struct{} // closed when the reader goroutine returns
	owed       owed          // answers the SDK owes; waited for at EOF

	endOnce sync.Once
	ended   chan struct{} // closed on the first read or write failure
	endErr  error         // set before ended is closed

	closeOnce sync.Once
	closed    chan struct{}
}

func newConn(r io.Reader, w io.Writer, limit int, stop <-chan struct{}, logger *slog.Logger, d *direct.Path) *conn {
	c := &conn{
		r:          r,
		direct:     d,
		out:        &lineWriter{w: w},
		lines:      newLineReader(r, limit),
		limit:      limit,
		toolsGen:   new(atomic.Int64),
		logger:     logger,
		stop:       stop,
		incoming:   make(chan jsonrpc.Message),
		readerDone: make(chan struct{}),
		ended:      make(chan struct{}),
		closed:     make(chan struct{}),
	}
	c.listedGen.Store(-1)
	return c
}

// end records the first failure of the connection; later ones are ignored.
func (c *conn) end(err error) {
	c.endOnce.Do(func() {
		c.endErr = err
		close(c.ended)
	})
}

// readLoop runs in its own goroutine until the input ends, fails, or the
// connection is stopped or closed.
func (c *conn) readLoop() {
	defer close(c.readerDone)
	for {
		l, err := c.lines.next()
		if err != nil {
			c.direct.Stop(err)
			if errors.Is(err, io.EOF) {
				c.settle()
			}
			c.end(err)
			return
		}
		msg, rej := judge(l, c.limit, c.direct.Ready())
		if rej != nil {
			c.logger.Warn("mcpserver: rejected input line", "code", rej.code, "reason", rej.message, "bytes", l.size)
			if err := c.out.writeLine(rej.encode()); err != nil {
				c.end(fmt.Errorf("writing an error response: %w", err))
				return
			}
			continue
		}
		if msg == nil {
			continue
		}
		if !c.wait(msg) {
			return
		}
		if req, ok := msg.(*jsonrpc.Request); ok {
			if c.direct.Take(req, c.writeDirect) {
				continue
			}
			c.direct.Cancelled(req)
			c.direct.Forward(req)
			c.owed.add(req)
			if req.Method == "tools/list" {
				c.listedGen.Store(c.toolsGen.Load())
			}
		}
		select {
		case c.incoming <- msg:
		case <-c.closed:
			c.direct.Stop(io.EOF)
			return
		case <-c.stop:
			c.direct.Stop(errStopped)
			return
		}
	}
}

// wait holds msg until Server.Hold's release when it is about tools (tools/list, tools/call).
// The reader waits with it, so whatever the client sent after it waits too, in order; the
// handshake before it (server/discover, initialize, notifications/initialized, ping) passes. It
// reports false when the connection was stopped or closed meanwhile.
func (c *conn) wait(msg jsonrpc.Message) bool {
	if c.held == nil {
		return true
	}
	if req, ok := msg.(*jsonrpc.Request); !ok || !strings.HasPrefix(req.Method, "tools/") {
		return true
	}
	select {
	case <-c.held:
		c.held = nil
		return true
	case <-c.closed:
		c.direct.Stop(io.EOF)
		return false
	case <-c.stop:
		c.direct.Stop(errStopped)
		return false
	}
}

// Read implements mcp.Connection. Messages read before a failure are
// delivered before the failure itself, because incoming is unbuffered.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-c.incoming:
		return msg, nil
	case <-c.ended:
		return nil, c.endErr
	case <-c.stop:
		return nil, errStopped
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write implements mcp.Connection.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if c.staleListChanged(msg) {
		return nil
	}
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp {
		c.direct.Answered(resp)
	}
	line, err := encodeLine(msg, c.direct.Ready())
	if err != nil {
		return err
	}
	err = c.out.writeLine(line)
	if isResp {
		c.owed.answered(resp) // written, or never will be
	}
	if err != nil {
		c.end(fmt.Errorf("writing to the client: %w", err))
		return err
	}
	return nil
}

// staleListChanged reports whether msg is a notifications/tools/list_changed the client has no
// use for: it has not listed the tools yet (tools added while Server.Hold holds the session, or
// before the client's first tools/list), or it asked for the list after the last tool was added,
// so the answer already holds it. The SDK sends the notification 10 ms after a change to every
// session, whatever the session has seen.
func (c *conn) staleListChanged(msg jsonrpc.Message) bool {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != "notifications/tools/list_changed" {
		return false
	}
	listed := c.listedGen.Load()
	return listed < 0 || listed >= c.toolsGen.Load()
}

// settle waits, once the input has ended, for the answers the SDK owes (see owed), at most
// eofGrace, or until the connection is stopped or closed.
func (c *conn) settle() {
	t := time.NewTimer(eofGrace)
	defer t.Stop()
	select {
	case <-c.owed.settled():
	case <-t.C:
		c.logger.Warn("mcpserver: input ended with requests unanswered after the grace period", "grace", eofGrace)
	case <-c.closed:
	case <-c.stop:
	}
}

// writeDirect writes the answer line of a call run on the direct path, as Write does for the
// SDK's answers.
func (c *conn) writeDirect(line []byte) {
	if err := c.out.writeLine(line); err != nil {
		c.end(fmt.Errorf("writing to the client: %w", err))
	}
}

// encodeLine renders msg as one newline-terminated line.
func encodeLine(msg jsonrpc.Message, fast bool) ([]byte, error) {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if line, ok := direct.EncodeResult(resp); fast && ok {
			return line, nil
		}
		msg = withErrorCode(resp)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, fmt.Errorf("encoding a JSON-RPC message: %w", err)
	}
	return append(data, '\n'), nil
}

// withErrorCode gives an error response without a JSON-RPC code (the SDK
// sends code 0 for plain Go errors, such as a call made before initialize)
// the code -32603 Internal error, so clients always see a valid code.
func withErrorCode(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error == nil {
		return resp
	}
	var wire *jsonrpc.Error
	if errors.As(resp.Error, &wire) && wire.Code != 0 {
		return resp
	}
	fixed := *resp
	fixed.Error = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: resp.Error.Error()}
	return &fixed
}

// Close implements mcp.Connection. It releases the reader goroutine: at once
// when it waits to hand over a message, and, when the reader supports read
// deadlines (pipes from os.Pipe, net.Conn), also when it is blocked reading.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		c.direct.Stop(io.EOF)
		close(c.closed)
		c.interruptRead()
	})
	return nil
}

func (c *conn) interruptRead() {
	if d, ok := c.r.(interface{ SetReadDeadline(time.Time) error }); ok {
		_ = d.SetReadDeadline(time.Unix(1, 0))
	}
}

// SessionID implements mcp.Connection; stdio sessions have no id.
func (c *conn) SessionID() string { return "" }

// transport hands the SDK a connection that already exists.
type transport struct{ conn *conn }

// Connect implements mcp.Transport.
func (t transport) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }
