package plugins

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/proto/pluginv1"
)

// exitGrace is how long a failed call waits to learn whether the process died, which decides
// between "crashed" and "call failed". A dead process is noticed within milliseconds.
const exitGrace = time.Second

// execute runs one operation. The call ends as soon as the process dies (go-plugin closes
// Done) or the host closes, whatever the RPC is doing.
func (i *instance) execute(ctx context.Context, operation string, args json.RawMessage) (tool.Result, error) {
	c, err := i.connect(ctx)
	if err != nil {
		return tool.Result{}, err
	}
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-c.rpc.Done():
			cancel()
		case <-i.h.done:
			cancel()
		case <-callCtx.Done():
		}
	}()
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	resp, err := c.rpc.Execute(callCtx, &pluginv1.ExecuteRequest{Operation: operation, ArgumentsJson: string(args)})
	if err == nil {
		i.answered()
		return toResult(resp), nil
	}
	return tool.Result{}, i.callError(ctx, c, operation, err)
}

// callError classifies a failed call: cancelled by the caller, host closed, process died,
// connection broken, or a protocol error from a live plugin.
func (i *instance) callError(ctx context.Context, c *conn, operation string, err error) error {
	name := i.spec.Name
	if ctx.Err() != nil {
		return fault.Wrap(ctx.Err(), fault.ExecutionPluginCallFailed, "the call to %s of plugin %q was cancelled", operation, name)
	}
	if i.h.isClosed() {
		return closedError(name)
	}
	code := status.Code(err)
	if code == codes.Unavailable || code == codes.Canceled || code == codes.Internal {
		t := time.NewTimer(exitGrace)
		defer t.Stop()
		select {
		case <-c.rpc.Done():
		case <-t.C:
		}
	}
	if c.exited() {
		cause := errors.New("plugin " + name + " exited during the call to " + operation + exitSuffix(c))
		i.mu.Lock()
		i.crashedLocked(c, cause)
		crashes := i.crashes
		i.mu.Unlock()
		e := fault.Wrap(cause, fault.ExecutionPluginCrashed, "plugin %q exited during the call to %s%s", name, operation, exitSuffix(c))
		if crashes >= i.h.opts.MaxCrashes {
			return e.WithHint("it died %d times in a row, so awf will not start it again in this session; see awf's log for its output", crashes)
		}
		return e.WithHint("awf starts it again on the next call; if it keeps dying, see awf's log for its output")
	}
	switch code {
	case codes.Unavailable:
		i.broken(c, err)
		return fault.Wrap(err, fault.ExecutionPluginCrashed, "lost the connection to plugin %q during the call to %s", name, operation).
			WithHint("awf restarts the plugin on the next call")
	case codes.NotFound, codes.InvalidArgument:
		return fault.New(fault.ExecutionPluginCallFailed, "plugin %q refused the call to %s: %s", name, operation, status.Convert(err).Message()).
			WithHint("the operation list awf holds may be out of date; run the step again")
	}
	i.log.Warn("plugin call failed", zap.String("operation", operation), zap.Error(err))
	return fault.Wrap(err, fault.ExecutionPluginCallFailed, "plugin %q failed to run %s: %s", name, operation, status.Convert(err).Message())
}

// toResult maps an ExecuteResponse to a tool result. The error message comes first, then the
// blocks; JSON blocks are carried as text holding the JSON (tool.Content is text only).
func toResult(resp *pluginv1.ExecuteResponse) tool.Result {
	res := tool.Result{IsError: resp.GetIsError(), Content: make([]tool.Content, 0, len(resp.GetContent())+1)}
	if msg := resp.GetErrorMessage(); msg != "" && resp.GetIsError() {
		res.Content = append(res.Content, tool.Content{Type: "text", Text: msg})
	}
	for _, c := range resp.GetContent() {
		switch k := c.GetKind().(type) {
		case *pluginv1.Content_Json:
			res.Content = append(res.Content, tool.Content{Type: "text", Text: k.Json})
		case *pluginv1.Content_Text:
			res.Content = append(res.Content, tool.Content{Type: "text", Text: k.Text})
		}
	}
	if res.IsError && len(res.Content) == 0 {
		res.Content = append(res.Content, tool.Content{Type: "text", Text: "the operation failed without saying why"})
	}
	return res
}

// fromProtoOperations maps listed operations to the port's type, keeping unset hints nil.
func fromProtoOperations(ops []*pluginv1.Operation) []ports.PluginOperation {
	out := make([]ports.PluginOperation, 0, len(ops))
	for _, op := range ops {
		a := op.GetAnnotations()
		var schema json.RawMessage
		if s := op.GetInputSchemaJson(); len(bytes.TrimSpace([]byte(s))) > 0 {
			schema = json.RawMessage(s)
		}
		out = append(out, ports.PluginOperation{
			Name:              op.GetName(),
			Description:       op.GetDescription(),
			InputSchema:       schema,
			OutputDescription: op.GetOutputDescription(),
			Annotations: tool.Annotations{
				Title:           a.GetTitle(),
				ReadOnlyHint:    a.ReadOnly,
				DestructiveHint: a.Destructive,
				IdempotentHint:  a.Idempotent,
				OpenWorldHint:   a.OpenWorld,
			},
		})
	}
	return out
}

// lineLogger forwards what a plugin prints to its redirected stdout/stderr into the log, one
// entry per line. A line longer than maxLine is logged in pieces.
type lineLogger struct {
	log    *zap.Logger
	stream string
	mu     sync.Mutex
	buf    []byte
}

const maxLine = 64 << 10

func newLineLogger(log *zap.Logger, stream string) *lineLogger {
	return &lineLogger{log: log, stream: stream}
}

func (l *lineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			if len(l.buf) >= maxLine {
				l.emit(l.buf)
				l.buf = l.buf[:0]
			}
			return len(p), nil
		}
		l.emit(l.buf[:i])
		l.buf = l.buf[i+1:]
	}
}

func (l *lineLogger) emit(line []byte) {
	line = bytes.TrimRight(line, "\r")
	if len(line) > 0 {
		l.log.Info("plugin output", zap.String("stream", l.stream), zap.ByteString("line", line))
	}
}
