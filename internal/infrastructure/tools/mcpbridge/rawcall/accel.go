package rawcall

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/infrastructure/tools/mcpbridge"
)

// New is the accelerator of one stdio connection (an mcpbridge.NewAccelerator); write sends
// one complete line to the server.
func New(write func(line []byte) error) mcpbridge.Accelerator { return &calls{write: write} }

// Observe learns the session's per-request _meta from the SDK's first tools/list.
func (r *calls) Observe(req *jsonrpc.Request) {
	if !r.learned.Load() {
		r.learn(req)
	}
}

// Take hands a reply to the call waiting for it; see take.
func (r *calls) Take(line []byte) bool { return r.take(line) }

// Fail ends every waiting call: the connection is gone.
func (r *calls) Fail(err error) { r.fail(err) }

// Ready reports whether the session's _meta is known, so a call can be written as the SDK
// would write it; before that, calls go through the SDK.
func (r *calls) Ready() bool { return r.learned.Load() }

// Call writes tools/call and waits for the reading goroutine to hand over its reply; when ctx
// ends first, the server is told with notifications/cancelled, as the SDK would, without
// waiting for the write.
func (r *calls) Call(ctx context.Context, name string, args json.RawMessage, token string) (tool.Result, error) {
	id, reply, err := r.open()
	if err != nil {
		return tool.Result{}, err
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(semconv.JSONRPCRequestID(strings.Trim(id, `"`)))
	}
	line, err := r.request(id, name, args, token, mcpbridge.TraceMeta(ctx))
	if err == nil {
		err = r.write(line)
		if err != nil {
			err = fmt.Errorf("%w: writing the call: %w", mcp.ErrConnectionClosed, err)
		}
	}
	if err != nil {
		r.close(id)
		return tool.Result{}, err
	}
	select {
	case got := <-reply:
		return got.res, got.err
	case <-ctx.Done():
		r.close(id)
		reason, _ := json.Marshal(ctx.Err().Error())
		// Off the caller's path: a server that stopped reading its stdin must not hold the
		// cancelled call (the write ends with an error when the connection closes).
		go func() {
			_ = r.write([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":` + string(reason) + "}}\n"))
		}()
		return tool.Result{}, ctx.Err()
	}
}
