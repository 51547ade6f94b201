package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's AddTool encodes and decodes every tool's input schema twice (to check its type and
// its x-mcp-header annotations), each decode with a fresh 32 KiB buffer: for awf's six built-in
// tools that was 470 KB of the 560 KB a server allocated before its first answer, and most of
// the page faults that made its cold start slower than a one-tool server's (issue 15). So a
// tool lives in this server's registry, and a receiving middleware answers tools/list from it
// and runs tools/call as the SDK's own callTool would, with the same result; the SDK still
// encodes every answer. The SDK gets a tool only where its own behaviour is needed: a tool
// added while a session runs (so that the SDK announces it with
// notifications/tools/list_changed), a schema with x-mcp-header annotations (which the SDK
// validates and uses), and every tool before a tools/list with a cursor (the SDK's pages).

// protocolMultiRoundTrip is the first protocol version whose tools/call results carry
// resultType (go-sdk's clientSupportsMultiRoundTrip); the SDK also assumes it for a session
// without initialize.
const protocolMultiRoundTrip = "2026-07-28"

// registered is one added tool: what tools/list shows and what runs it.
type registered struct {
	tool    *mcp.Tool
	handler Handler
	inSDK   bool // also added to the SDK, which then lists and runs it itself
}

// toolsMiddleware answers tools/list and tools/call for the registry, and tools/call for an
// unknown name with the fallback handler when there is one.
func (s *Server) toolsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListToolsRequest:
			if method == "tools/list" {
				if res, ok := s.listTools(r); ok {
					return res, nil
				}
			}
		case *mcp.CallToolRequest:
			if method == "tools/call" && r.Params != nil {
				if res, err, ok := s.callTool(ctx, r); ok {
					if err != nil {
						return nil, err
					}
					return res, nil
				}
			}
		}
		return next(ctx, method, req)
	}
}

// listTools is the SDK's listTools for a first page holding every tool: sorted by name, an
// empty list rather than null, and the default cache hints. A cursor, or more tools than the
// SDK's page, go to the SDK (false), which then gets every tool first.
func (s *Server) listTools(req *mcp.ListToolsRequest) (*mcp.ListToolsResult, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if (req.Params != nil && req.Params.Cursor != "") || len(s.tools) > mcp.DefaultPageSize {
		for name := range s.tools {
			_ = s.toSDK(name) // each was accepted once; the SDK rejects none it checks again
		}
		return nil, false
	}
	names := make([]string, 0, len(s.tools))
	for name := range s.tools {
		names = append(names, name)
	}
	slices.Sort(names)
	res := &mcp.ListToolsResult{Tools: make([]*mcp.Tool, 0, len(names))}
	for _, name := range names {
		res.Tools = append(res.Tools, s.tools[name].tool)
	}
	res.CacheScope = "public" // what the SDK's Cacheable.normalize sets without SetCacheable
	return res, true
}

// callTool runs a tool the SDK does not hold, or an unknown name's fallback; ok is false for
// what the SDK runs itself.
func (s *Server) callTool(ctx context.Context, call *mcp.CallToolRequest) (res *mcp.CallToolResult, err error, ok bool) {
	name := call.Params.Name
	s.mu.Lock()
	reg, known := s.tools[name]
	inSDK := known && reg.inSDK
	fb := s.fallback
	s.mu.Unlock()
	switch {
	case known && !inSDK:
		res, err := s.wrap(name, reg.handler)(ctx, call)
		if err != nil {
			return nil, err, true
		}
		return completed(call.Session, res), nil, true
	case !known && fb != nil:
		res, err := s.wrap(name, func(ctx context.Context, a json.RawMessage) (*Result, error) {
			return fb(ctx, name, a)
		})(ctx, call)
		return res, err, true
	}
	return nil, nil, false
}

// toSDK adds the registered tool name to the SDK; s.mu is held. The SDK panics on a schema it
// cannot use, which is returned as an error.
func (s *Server) toSDK(name string) (err error) {
	reg := s.tools[name]
	if reg.inSDK {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("tool %q rejected by the MCP SDK: %v", name, p)
		}
	}()
	s.sdk.AddTool(reg.tool, s.wrap(name, reg.handler))
	reg.inSDK = true
	return nil
}

// sdkOnly reports whether a tool's schema needs the SDK's own checks and handling.
func sdkOnly(schema json.RawMessage) bool { return bytes.Contains(schema, []byte("x-mcp-header")) }

// completed is what the SDK's callTool makes of a handler's result: resultType "complete" for
// a client of the multi-round-trip protocol (an unexported field, so it comes from a result
// the SDK itself decoded, with every exported field copied over), and content never null.
func completed(ss *mcp.ServerSession, res *mcp.CallToolResult) *mcp.CallToolResult {
	if res == nil {
		return nil
	}
	version := protocolMultiRoundTrip
	if ss != nil {
		if p := ss.InitializeParams(); p != nil {
			version = p.ProtocolVersion
		}
	}
	if version >= protocolMultiRoundTrip {
		out := completeTemplate()
		dst, src := reflect.ValueOf(&out).Elem(), reflect.ValueOf(res).Elem()
		for _, i := range exportedResultFields() {
			dst.Field(i).Set(src.Field(i))
		}
		res = &out
	}
	if res.Content == nil {
		res.Content = []mcp.Content{}
	}
	return res
}

// completeTemplate is a result whose unexported resultType is "complete", as the SDK decodes
// it; made on first use, not at every start of every binary linking this package.
var completeTemplate = sync.OnceValue(func() mcp.CallToolResult {
	var r mcp.CallToolResult
	if err := json.Unmarshal([]byte(`{"content":[],"resultType":"complete"}`), &r); err != nil {
		panic("mcpserver: the SDK no longer decodes resultType: " + err.Error())
	}
	return r
})

// exportedResultFields are the indexes of CallToolResult's exported fields.
var exportedResultFields = sync.OnceValue(func() []int {
	var out []int
	t := reflect.TypeFor[mcp.CallToolResult]()
	for i := range t.NumField() {
		if t.Field(i).IsExported() {
			out = append(out, i)
		}
	}
	return out
})
