package mcpserve

import (
	"context"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/pkg/mcpserver"
)

// withProgress hands the router's providers a way to report progress when, and only when,
// the agent's client sent a progress token: a bridged MCP server then gets a token of its own
// and each of its notifications/progress reaches the agent under the agent's token.
func withProgress(ctx context.Context) context.Context {
	if !mcpserver.WantsProgress(ctx) {
		return ctx
	}
	return tool.WithProgress(ctx, func(p tool.Progress) {
		_ = mcpserver.ReportProgress(ctx, p.Progress, p.Total, p.Message)
	})
}
