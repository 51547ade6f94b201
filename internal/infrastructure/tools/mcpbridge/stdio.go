package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

// maxStdioLine bounds one message from a bridged server: far above what a tool result may be
// (agent CLIs give up near 20 MB), so only a broken server reaches it.
const maxStdioLine = 64 << 20

// stdioTransport is the client side of MCP's stdio transport for a bridged server: one JSON-RPC
// message per line of the server's stdout, requests written to its stdin. It replaces the SDK's
// CommandTransport on awf's hot path (a bridged call crosses it twice): a line is read into a
// reused buffer and decoded once, with no per-message JSON stream decoder; and a line that is
// not JSON (a banner a wrapper such as npx prints to stdout) is logged and skipped instead of
// ending the session.
type stdioTransport struct {
	cmd *exec.Cmd
	log *zap.Logger
	// progress receives the server's notifications/progress in the reading goroutine, in
	// stream order, so a call's progress is delivered before its result is read (the SDK
	// would hand notifications to a queue that may run after the result reached the caller).
	progress *progressRoutes
	// terminate is how long Close waits after closing stdin, and again after SIGTERM.
	terminate time.Duration
	// accel makes the connection's Accelerator; nil for none.
	accel NewAccelerator
	// kill ends the server's whole process tree at once (Config.KillGroup); nil kills the
	// command alone.
	kill func(pid int)
	// conn is the connection Connect made.
	conn *stdioConn
}

// Connect starts the server.
func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// StartMapped: a server without network gets a user namespace whose id maps the parent
	// writes, which a non-dumpable mcp-serve may do only while it is dumpable again.
	if err := sandbox.StartMapped(t.cmd); err != nil {
		return nil, err
	}
	c := &stdioConn{t: t, stdin: stdin, r: bufio.NewReaderSize(stdout, 64<<10), exited: make(chan struct{})}
	if t.accel != nil {
		c.accel = t.accel(c.writeLine)
	}
	go func() { c.waitErr = t.cmd.Wait(); close(c.exited) }()
	t.conn = c
	return c, nil
}

// stdioConn is one running server's connection.
type stdioConn struct {
	t       *stdioTransport
	stdin   io.WriteCloser
	r       *bufio.Reader
	line    []byte // reused for lines longer than the reader's buffer
	wmu     sync.Mutex
	once    sync.Once
	exited  chan struct{}
	waitErr error
	// accel sends tools/call beside the SDK; the reading goroutine hands it the lines first.
	// nil for none.
	accel Accelerator
	// started is set once the server has initialized and listed its tools (Server.startLocked):
	// only such a server is stopped gracefully.
	started atomic.Bool
}

// Read returns the next message. Close unblocks it: the server's stdout reaches EOF when it exits.
func (c *stdioConn) Read(context.Context) (jsonrpc.Message, error) {
	for {
		line, err := c.readLine()
		if err != nil {
			c.fail(fmt.Errorf("%w: %w", mcp.ErrConnectionClosed, err))
			return nil, err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || (c.accel != nil && c.accel.Take(line)) {
			continue
		}
		msg, derr := jsonrpc.DecodeMessage(line)
		if derr == nil {
			if req, ok := msg.(*jsonrpc.Request); ok && c.t.progress != nil && req.Method == "notifications/progress" && !req.IsCall() {
				c.t.progress.deliverRaw(req.Params)
				continue
			}
			return msg, nil
		}
		c.t.log.Warn("MCP server wrote a line to stdout that is not a JSON-RPC message; skipped", zap.String("line", string(truncateLine(line))), zap.Error(derr))
	}
}

// readLine returns the next line without its newline; the slice is valid until the next call.
func (c *stdioConn) readLine() ([]byte, error) {
	line, err := c.r.ReadSlice('\n')
	if err == nil || (err == io.EOF && len(line) > 0) {
		return line, nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	c.line = append(c.line[:0], line...)
	for {
		more, err := c.r.ReadSlice('\n')
		c.line = append(c.line, more...)
		if len(c.line) > maxStdioLine {
			return nil, fmt.Errorf("a message from the MCP server is over %d bytes", maxStdioLine)
		}
		switch {
		case err == nil, err == io.EOF && len(c.line) > 0:
			return c.line, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, err
		}
	}
}

func truncateLine(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}

// Write sends one message as one line.
func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && c.accel != nil {
		c.accel.Observe(req)
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(append(b, '\n'))
}

// writeLine writes one complete message line, newline included.
func (c *stdioConn) writeLine(line []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.stdin.Write(line)
	return err
}

// Close ends the session as the stdio transport asks: stdin closed, then SIGTERM, then SIGKILL,
// each after the terminate wait. The caller kills what is left of the process group. A server
// whose start failed (it did not initialize within startup_timeout, or failed to list its
// tools) has had its time: it is killed at once, with its whole tree, so a launcher that
// ignores stdin EOF and SIGTERM adds nothing to the startup timeout a caller already waited.
func (c *stdioConn) Close() error {
	c.once.Do(func() {
		c.fail(mcp.ErrConnectionClosed)
		_ = c.stdin.Close()
		if !c.started.Load() {
			c.abort()
			return
		}
		if c.wait() {
			return
		}
		_ = c.t.cmd.Process.Signal(syscall.SIGTERM)
		if c.wait() {
			return
		}
		_ = c.t.cmd.Process.Kill()
		<-c.exited
	})
	return nil
}

// abort kills the server's tree without grace and waits for the server to be reaped.
func (c *stdioConn) abort() {
	if c.t.kill != nil {
		c.t.kill(c.t.cmd.Process.Pid)
	}
	_ = c.t.cmd.Process.Kill()
	<-c.exited
}

func (c *stdioConn) wait() bool {
	timer := time.NewTimer(c.t.terminate)
	defer timer.Stop()
	select {
	case <-c.exited:
		return true
	case <-timer.C:
		return false
	}
}

// fail tells the accelerator the connection is gone.
func (c *stdioConn) fail(err error) {
	if c.accel != nil {
		c.accel.Fail(err)
	}
}

// SessionID is empty: stdio has no sessions.
func (c *stdioConn) SessionID() string { return "" }
