package direct

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/awf-dev/awf/pkg/jsonstr"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The direct path's answers (see direct.go): byte for byte what the SDK writes for the same
// result.

// answerBufs hold answer lines between calls: a 4 KiB Read's answer is written from a buffer
// the previous call used, not a new one (the line writer keeps nothing of what it writes).
var answerBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// maxPooledAnswer is the largest answer buffer kept; a rare large answer is not held on to.
const maxPooledAnswer = 256 << 10

// answerLine runs the call and appends its answer line to dst (nil when it cannot be encoded,
// when jsonrpc2 would write nothing either).
func (p *Path) answerLine(ctx context.Context, dst []byte, c call, sessionFormat bool) []byte {
	s := p.srv
	res, err := s.host.Call(ctx, c.name, c.args)
	if err != nil {
		return s.host.Encode(&jsonrpc.Response{ID: c.id, Error: err})
	}
	if text, ok := plainText(res); ok {
		isError, resultType := res.IsError, sessionFormat || c.newFormat
		if id, ok := c.id.Raw().(int64); ok {
			// What EncodeResult writes around the result, written straight into the line.
			dst = append(dst, `{"jsonrpc":"2.0","id":`...)
			dst = strconv.AppendInt(dst, id, 10)
			dst = append(dst, `,"result":`...)
			dst = AppendTextResult(dst, text, isError, c.newFormat, resultType, s.metaFor(c.newFormat))
			return append(dst, '}', '\n')
		}
		return s.host.Encode(&jsonrpc.Response{ID: c.id, Result: AppendTextResult(nil, text, isError, c.newFormat, resultType, s.metaFor(c.newFormat))})
	}
	result, err := s.sdkAnswer(res, c.newFormat, sessionFormat || c.newFormat)
	if err != nil {
		return s.host.Encode(&jsonrpc.Response{ID: c.id, Error: err})
	}
	return s.host.Encode(&jsonrpc.Response{ID: c.id, Result: result})
}

// sdkAnswer encodes a result that is not plain text as the SDK's path does: the serverInfo
// _meta when serverInfo (ServerSession.handle's annotateServerInfo), resultType when asked.
func (s *Server) sdkAnswer(out *mcp.CallToolResult, serverInfo, resultType bool) ([]byte, error) {
	if out.Content == nil {
		out.Content = []mcp.Content{}
	}
	if serverInfo {
		m := out.GetMeta()
		if m == nil {
			m = map[string]any{}
		}
		if _, ok := m[mcp.MetaKeyServerInfo]; !ok {
			m[mcp.MetaKeyServerInfo] = s.impl
			out.SetMeta(m)
		}
	}
	data, err := out.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errMalformedResult, err)
	}
	if resultType && len(data) > 1 {
		// resultType is the last field the SDK writes (inputRequests, after it, is never set
		// here), and MarshalJSON cannot write it for a result built outside the SDK: the field
		// is unexported (Check verifies both at start).
		data = append(data[:len(data)-1], `,"resultType":"complete"}`...)
	}
	return data, nil
}

// errMalformedResult stands for what jsonrpc2 does with a result it cannot encode (it writes
// nothing); it cannot happen with results the host converted.
var errMalformedResult = errors.New("mcpserver: tool result cannot be encoded")

// plainText returns the texts of a result made of text blocks only, without annotations, _meta
// or structuredContent, which AppendTextResult writes as MarshalJSON does; false otherwise.
func plainText(r *mcp.CallToolResult) ([]string, bool) {
	if r.Meta != nil || r.StructuredContent != nil {
		return nil, false
	}
	texts := make([]string, 0, len(r.Content))
	for _, c := range r.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok || t.Meta != nil || t.Annotations != nil {
			return nil, false
		}
		texts = append(texts, t.Text)
	}
	return texts, true
}

// AppendTextResult writes a CallToolResult of text blocks as the SDK's MarshalJSON does, with
// the serverInfo _meta and the resultType of a ModernProtocol answer when asked.
func AppendTextResult(dst []byte, texts []string, isError, serverInfo, resultType bool, serverInfoMeta []byte) []byte {
	size := 64 + len(serverInfoMeta)
	for _, t := range texts {
		size += len(t) + len(t)/8 + 32
	}
	if dst == nil {
		dst = make([]byte, 0, size)
	}
	dst = append(dst, '{')
	if serverInfo {
		dst = append(dst, `"_meta":`...)
		dst = append(dst, serverInfoMeta...)
		dst = append(dst, ',')
	}
	dst = append(dst, `"content":[`...)
	for i, t := range texts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":"text","text":`...)
		dst = jsonstr.Append(dst, t)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	if isError {
		dst = append(dst, `,"isError":true`...)
	}
	if resultType {
		dst = append(dst, `,"resultType":"complete"`...)
	}
	return append(dst, '}')
}

// metaFor is the serverInfo _meta when an answer carries it, else nil.
func (s *Server) metaFor(serverInfo bool) []byte {
	if !serverInfo {
		return nil
	}
	return s.serverInfoMeta()
}
