package tool

import "context"

// Progress is one progress report of a running call, as MCP's notifications/progress carries
// it: how far along (Total 0 when unknown) and an optional message.
type Progress struct {
	Progress float64
	Total    float64
	Message  string
}

// ProgressFunc receives the progress of one call. It must not block for long: it runs on the
// path that brings the tool's notifications in.
type ProgressFunc func(Progress)

type progressKey struct{}

// WithProgress returns ctx carrying where a call's progress goes. The MCP front end sets it
// when its client sent a progress token; a provider that can report progress (a bridged MCP
// server) asks its own server for progress only then, and sends each report to fn.
func WithProgress(ctx context.Context, fn ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// ProgressFrom is the ProgressFunc WithProgress stored; nil when the caller wants no progress.
func ProgressFrom(ctx context.Context) ProgressFunc {
	fn, _ := ctx.Value(progressKey{}).(ProgressFunc)
	return fn
}
