package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FallbackHandler answers a tools/call for a name no tool was added under.
type FallbackHandler func(ctx context.Context, name string, arguments json.RawMessage) (*Result, error)

// SetFallback routes tools/call requests for unknown tool names to h instead of letting the SDK
// answer with a bare protocol error. A proxy uses it to tell the model what to call instead (for
// example, in split mode, which call_tool_* variant to use). Call it before Serve.
func (s *Server) SetFallback(h FallbackHandler) {
	s.mu.Lock()
	first := s.fallback == nil
	s.fallback = h
	s.mu.Unlock()
	if !first {
		return
	}
	s.sdk.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok || call.Params == nil {
				return next(ctx, method, req)
			}
			s.mu.Lock()
			known, fb := s.names[call.Params.Name], s.fallback
			s.mu.Unlock()
			if known || fb == nil {
				return next(ctx, method, req)
			}
			args := json.RawMessage(`{}`)
			if len(call.Params.Arguments) > 0 && string(call.Params.Arguments) != "null" {
				args = call.Params.Arguments
			}
			name := call.Params.Name
			res, err := s.invoke(withProgress(ctx, call), name, Handler(func(ctx context.Context, a json.RawMessage) (*Result, error) {
				return fb(ctx, name, a)
			}), args)
			if err != nil {
				return nil, rpcError(err)
			}
			return sdkResult(name, res)
		}
	})
}
