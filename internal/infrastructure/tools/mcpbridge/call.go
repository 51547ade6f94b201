package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

//lint:file-ignore SA1019 MCP logging (notifications/message) is deprecated by SEP-2577 but still what servers send.

// pingTimeout bounds the liveness check after a call timed out: a server that cannot answer a
// ping within it is hung and is restarted; one that answers keeps its session.
const pingTimeout = 2 * time.Second

// call runs one tools/call, bounded by call_timeout: through the SDK's client (sdkCall), or
// through the connection's accelerator once it is ready. When the caller wants progress it
// gets a token of its own for the server, and the server's reports come back through it. A call cancelled by the caller or by call_timeout is
// cancelled upstream too (notifications/cancelled for the request), and the session is kept
// unless the server no longer answers (a crash, or a hang that a ping exposes), in which case
// it is dropped and the next call starts the server again. A JSON-RPC error the server answers
// with is the call's failure, not the server's: the session is kept.
func (s *Server) call(ctx context.Context, sess *mcp.ClientSession, accel Accelerator, name string, args json.RawMessage) (res tool.Result, err error) {
	ctx, span := s.startCall(ctx, sess, name)
	cctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	defer func() { span.end(ctx, cctx, res, err) }()
	defer cancel()
	token := ""
	if fn := tool.ProgressFrom(ctx); fn != nil {
		t, done := s.progress.open(s.cfg.Name, fn)
		defer done()
		token = t
	}
	if accel != nil && accel.Ready() {
		res, err = accel.Call(cctx, name, args, token)
	} else {
		res, err = s.sdkCall(cctx, sess, name, args, token)
	}
	if err == nil {
		return res, nil
	}
	return tool.Result{}, s.callError(ctx, cctx, sess, name, err)
}

// sdkCall is the call through the SDK's client session: the reference path, over Streamable
// HTTP and stdio alike.
func (s *Server) sdkCall(ctx context.Context, sess *mcp.ClientSession, name string, args json.RawMessage, token string) (tool.Result, error) {
	var arguments any = map[string]any{}
	if len(args) > 0 {
		arguments = args
	}
	// The log level rides on each request under the 2026-07-28 protocol (SEP-2575); older
	// servers took it once through logging/setLevel (askForLogs) and ignore the key.
	params := &mcp.CallToolParams{Name: name, Arguments: arguments, Meta: mcp.Meta{mcp.MetaKeyLogLevel: "info"}}
	for k, v := range TraceMeta(ctx) { // the call's trace context, for the server's spans
		params.Meta[k] = v
	}
	if token != "" {
		params.SetProgressToken(token)
		if s.overHTTP.Load() {
			// Over HTTP the SDK hands the result to the caller as soon as it is read, while the
			// server's notifications sent before it may still wait in the session's handler
			// queue; a ping after the result lets that queue drain. The stdio transport
			// delivers progress as it reads it, in order (stdioTransport.progress).
			defer func() { _ = sess.Ping(ctx, nil) }()
		}
	}
	res, err := sess.CallTool(ctx, params)
	if err != nil {
		return tool.Result{}, err
	}
	return FromCallResult(res), nil
}

// callError turns a failed call into awf's fault, dropping the session when the server is
// gone or hung; ctx is the caller's, cctx the call's (with call_timeout).
func (s *Server) callError(ctx, cctx context.Context, sess *mcp.ClientSession, name string, err error) error {
	var rpcErr *jsonrpc.Error
	switch {
	case ctx.Err() != nil:
		s.log.Info("MCP call cancelled; the server was told", zap.String("tool", name), zap.Error(context.Cause(ctx)))
		return fault.Wrap(ctx.Err(), fault.ExecutionToolCancelled, "MCP plugin %q: the call to %s was cancelled (%v); the server was asked to stop it", s.cfg.Name, name, ctx.Err())
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		hung := !s.answers(sess)
		if hung {
			s.drop(sess)
		}
		s.log.Warn("MCP call timed out; the server was told to cancel it", zap.String("tool", name), zap.Duration("call_timeout", s.cfg.CallTimeout), zap.Bool("restarting", hung))
		return fault.New(fault.ExecutionPluginCallTimeout, "MCP plugin %q: %s did not answer within call_timeout (%s); awf cancelled the call", s.cfg.Name, name, s.cfg.CallTimeout).
			At(s.cfg.Pos).WithHint("raise call_timeout for %q in %s if the tool is slow, or check the server's stderr in awf's log", s.cfg.Name, s.cfg.File)
	case errors.Is(err, mcp.ErrConnectionClosed), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, os.ErrClosed): // the server's stdout closed under the SDK's reader when it exited
		s.drop(sess)
		return fault.Wrap(err, fault.ExecutionPluginCrashed, "MCP plugin %q exited or closed its connection during the call to %s", s.cfg.Name, name).
			WithHint("the next call restarts it; its stderr is in awf's log")
	case errors.As(err, &rpcErr):
		// The server answered, with an error instead of a result (unknown tool, invalid
		// params, a failure of its own): it works, and keeps its session.
		return fault.Wrap(err, fault.ExecutionPluginCallFailed, "MCP plugin %q refused the call to %s: %s (JSON-RPC error %d)", s.cfg.Name, name, rpcErr.Message, rpcErr.Code).
			WithHint("check the arguments against the tool's input schema (`awf plugins list`); the server's stderr is in awf's log")
	}
	s.drop(sess)
	return fault.Wrap(err, fault.ExecutionPluginCallFailed, "MCP plugin %q: calling %s failed: %v", s.cfg.Name, name, err).
		WithHint("the server stopped answering or crashed; the next call restarts it, and its stderr is in awf's log")
}

// answers reports whether the server still answers a ping.
func (s *Server) answers(sess *mcp.ClientSession) bool {
	ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
	defer cancel()
	return sess.Ping(ctx, nil) == nil
}

// serverLog writes one notifications/message of the server to awf's log, tagged with the
// plugin (the server's logger), at the matching level.
func (s *Server) serverLog(p *mcp.LoggingMessageParams) {
	if p == nil {
		return
	}
	fields := []zap.Field{zap.String("mcp_level", string(p.Level)), zap.Any("data", p.Data)}
	if p.Logger != "" {
		fields = append(fields, zap.String("logger", p.Logger))
	}
	switch p.Level {
	case "debug":
		s.log.Debug("MCP server log", fields...)
	case "warning":
		s.log.Warn("MCP server log", fields...)
	case "error", "critical", "alert", "emergency":
		s.log.Error("MCP server log", fields...)
	default:
		s.log.Info("MCP server log", fields...)
	}
}

// progressRoutes maps the progress tokens awf gave a server to the calls waiting for progress.
type progressRoutes struct {
	next   atomic.Uint64
	routes sync.Map // token string → tool.ProgressFunc
}

// open registers fn under a new token, unique within the session; done removes it.
func (p *progressRoutes) open(plugin string, fn tool.ProgressFunc) (string, func()) {
	token := fmt.Sprintf("awf-%s-%s", plugin, strconv.FormatUint(p.next.Add(1), 10))
	p.routes.Store(token, fn)
	return token, func() { p.routes.Delete(token) }
}

// deliverRaw is deliver for the JSON params of a notification; unreadable params are ignored.
func (p *progressRoutes) deliverRaw(params json.RawMessage) {
	var n mcp.ProgressNotificationParams
	if json.Unmarshal(params, &n) == nil {
		p.deliver(&n)
	}
}

// deliver passes one notifications/progress to its call; a token awf did not give (or whose
// call has ended) is ignored.
func (p *progressRoutes) deliver(n *mcp.ProgressNotificationParams) {
	if n == nil {
		return
	}
	token, ok := n.ProgressToken.(string)
	if !ok {
		return
	}
	if fn, ok := p.routes.Load(token); ok {
		fn.(tool.ProgressFunc)(tool.Progress{Progress: n.Progress, Total: n.Total, Message: n.Message})
	}
}
