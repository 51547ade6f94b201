package mcpserver

import (
	"context"
	"encoding/json"
)

// FallbackHandler answers a tools/call for a name no tool was added under.
type FallbackHandler func(ctx context.Context, name string, arguments json.RawMessage) (*Result, error)

// SetFallback routes tools/call requests for unknown tool names to h instead of letting the SDK
// answer with a bare protocol error. A proxy uses it to tell the model what to call instead (for
// example, in split mode, which call_tool_* variant to use). Call it before Serve.
func (s *Server) SetFallback(h FallbackHandler) {
	s.mu.Lock()
	s.fallback = h
	s.mu.Unlock()
}
