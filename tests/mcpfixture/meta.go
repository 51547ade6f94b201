package main

import (
	"context"
	"encoding/json"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recordMeta makes the server append the params._meta of every tools/call it receives, one
// JSON object a line, to the file FIXTURE_META_LOG names (nothing when it is unset): how the
// tests see the trace context awf sends a bridged server.
func recordMeta(s *mcp.Server) {
	path := os.Getenv("FIXTURE_META_LOG")
	if path == "" {
		return
	}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && method == "tools/call" {
				line, err := json.Marshal(map[string]any{"tool": p.Name, "_meta": p.Meta})
				if err == nil {
					if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
						_, _ = f.Write(append(line, '\n'))
						_ = f.Close()
					}
				}
			}
			return next(ctx, method, req)
		}
	})
}
