package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type progressKey struct{}

// progressTarget is where the progress of one call goes: the session that
// made the call and the token its client chose.
type progressTarget struct {
	session *mcp.ServerSession
	token   any
}

// withProgress marks ctx with the call's progress token, when its client sent
// one; a call without a token costs one map lookup.
func withProgress(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if req == nil || req.Params == nil || req.Session == nil {
		return ctx
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, progressTarget{session: req.Session, token: tok})
}

// WantsProgress reports whether the client that made the call ctx belongs to
// asked for progress (sent _meta.progressToken). A handler that forwards the
// call elsewhere asks for progress there only when this is true.
func WantsProgress(ctx context.Context) bool {
	_, ok := ctx.Value(progressKey{}).(progressTarget)
	return ok
}

// ReportProgress sends notifications/progress for the call ctx belongs to,
// with the client's own token. It does nothing and returns nil when the client
// sent no token. total 0 means unknown; progress should grow from one report
// to the next, as the protocol asks.
func ReportProgress(ctx context.Context, progress, total float64, message string) error {
	t, ok := ctx.Value(progressKey{}).(progressTarget)
	if !ok {
		return nil
	}
	return t.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: t.token, Progress: progress, Total: total, Message: message})
}
