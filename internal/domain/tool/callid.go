package tool

import "context"

type callIDKey struct{}

// WithCallID returns ctx carrying the id the model gave a tool call (a chat-completions
// tool_calls id), so the call's span can name it (gen_ai.tool.call.id, docs/reference/telemetry.md)
// and a trace can be matched to the model's request that asked for it.
func WithCallID(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, callIDKey{}, id)
}

// CallIDFrom is the id WithCallID stored, "" when none.
func CallIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(callIDKey{}).(string)
	return id
}
