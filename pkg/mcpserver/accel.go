package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/awf-dev/awf/pkg/mcpserver/internal/direct"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Accelerators is a set of shortcuts beside the SDK's own path, each answering the same bytes
// as the SDK does: the transcripts in testdata pin them, and the package's tests run once with
// every accelerator off and once with every one on. The SDK's path is complete without them;
// one is kept only while a benchmark of a whole agent step shows it matters (tests/bench,
// BenchmarkStepSession). Each lives in a package of its own under internal/.
type Accelerators uint8

const (
	// AccelDirect runs an ordinary tools/call from the input reader straight to its handler and
	// writes the SDK's answer itself, and reads and writes the common lines without decoding or
	// encoding them twice (internal/direct). Without it the server uses about 1.4 times the CPU
	// on a mixed agent step. If the SDK linked answers otherwise than the path was written for,
	// the server logs an error and serves through the SDK (a check run once per process, in the
	// background; until it has passed, the SDK answers).
	AccelDirect Accelerators = 1 << iota

	// AccelAll is every accelerator.
	AccelAll = AccelDirect
)

// accelerate switches on the accelerators of a, as far as the SDK linked allows.
func (s *Server) accelerate(a Accelerators, impl *mcp.Implementation) {
	if a&AccelDirect == 0 {
		return
	}
	s.direct = direct.NewServer(directHost{s}, impl, func(err error) {
		s.logger.Error("mcpserver: the direct tools/call path is off; every call goes through the MCP SDK", "error", err)
	})
}

// directHost is the Server as the direct path sees it.
type directHost struct{ s *Server }

// Known implements direct.Host.
func (h directHost) Known(name string) bool {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	_, ok := h.s.tools[name]
	return ok
}

// Call implements direct.Host.
func (h directHost) Call(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	h.s.mu.Lock()
	handler := h.s.tools[name]
	h.s.mu.Unlock()
	return h.s.run(ctx, name, handler, args)
}

// Encode implements direct.Host.
func (h directHost) Encode(resp *jsonrpc.Response) []byte {
	line, err := encodeLine(resp, true)
	if err != nil {
		h.s.logger.Error("mcpserver: encoding an answer", "error", err)
		return nil
	}
	return line
}

// directCalls is how many calls the direct path has run, for tests.
func (s *Server) directCalls() int64 {
	if s.direct == nil {
		return 0
	}
	return s.direct.Calls.Load()
}
