package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolsMiddleware answers a tools/call for a name no tool was added under with the fallback
// handler, when there is one; everything else goes on to the SDK.
func (s *Server) toolsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if call, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && call.Params != nil {
			name := call.Params.Name
			s.mu.Lock()
			_, known := s.tools[name]
			fb := s.fallback
			s.mu.Unlock()
			if !known && fb != nil {
				return s.wrap(name, func(ctx context.Context, a json.RawMessage) (*Result, error) {
					return fb(ctx, name, a)
				})(ctx, call)
			}
		}
		return next(ctx, method, req)
	}
}

// toSDK adds a tool to the SDK. The SDK panics on a schema it cannot use, which is returned as
// an error.
func (s *Server) toSDK(t *mcp.Tool, h Handler) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("tool %q rejected by the MCP SDK: %v", t.Name, p)
		}
	}()
	s.sdk.AddTool(t, s.wrap(t.Name, h))
	return nil
}
