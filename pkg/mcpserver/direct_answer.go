package mcpserver

import (
	"context"
	"encoding/json"
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
func (d *direct) answerLine(ctx context.Context, dst []byte, call directCall, sessionFormat bool) []byte {
	s := d.srv
	s.inFlight.Add(1)
	res, err := s.invoke(ctx, call.name, call.handler, call.args)
	s.inFlight.Add(-1)
	if err != nil {
		return d.encode(&jsonrpc.Response{ID: call.id, Error: rpcError(err)})
	}
	if text, ok := plainText(res); ok {
		isError, resultType := res != nil && res.IsError, sessionFormat || call.newFormat
		if id, ok := call.id.Raw().(int64); ok {
			// What encodeResult writes around the result, written straight into the line.
			dst = append(dst, `{"jsonrpc":"2.0","id":`...)
			dst = strconv.AppendInt(dst, id, 10)
			dst = append(dst, `,"result":`...)
			dst = appendTextResult(dst, text, isError, call.newFormat, resultType, s.metaFor(call.newFormat))
			return append(dst, '}', '\n')
		}
		return d.encode(&jsonrpc.Response{ID: call.id, Result: appendTextResult(nil, text, isError, call.newFormat, resultType, s.metaFor(call.newFormat))})
	}
	result, err := d.sdkAnswer(call, res, sessionFormat)
	if err != nil {
		return d.encode(&jsonrpc.Response{ID: call.id, Error: err})
	}
	return d.encode(&jsonrpc.Response{ID: call.id, Result: result})
}

// encode renders resp as the SDK's answers are rendered (conn.Write's encodeLine).
func (d *direct) encode(resp *jsonrpc.Response) []byte {
	line, err := encodeLine(resp)
	if err != nil {
		d.srv.logger.Error("mcpserver: encoding an answer", "error", err)
		return nil
	}
	return line
}

// sdkAnswer converts a result that is not plain text as the SDK's path does, and encodes it.
func (d *direct) sdkAnswer(call directCall, res *Result, sessionFormat bool) (json.RawMessage, error) {
	s := d.srv
	out, err := sdkResult(call.name, res)
	if err != nil {
		return nil, err
	}
	if out.Content == nil {
		out.Content = []mcp.Content{}
	}
	if call.newFormat {
		// ServerSession.handle's annotateServerInfo.
		m := out.GetMeta()
		if m == nil {
			m = map[string]any{}
		}
		if _, ok := m[metaKeyServerInfo]; !ok {
			m[metaKeyServerInfo] = s.impl
			out.SetMeta(m)
		}
	}
	data, err := out.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errMalformedResult, err)
	}
	if (sessionFormat || call.newFormat) && len(data) > 1 {
		// resultType is the last field the SDK writes (inputRequests, after it, is never set
		// here), and MarshalJSON cannot write it for a result built outside the SDK.
		data = append(data[:len(data)-1], `,"resultType":"complete"}`...)
	}
	return data, nil
}

// errMalformedResult stands for what jsonrpc2 does with a result it cannot encode (it writes
// nothing); it cannot happen with results made by sdkResult.
var errMalformedResult = errors.New("mcpserver: tool result cannot be encoded")

// metaKeyServerInfo is the _meta key under which a 2026-07-28 result names its server.
const metaKeyServerInfo = "io.modelcontextprotocol/serverInfo"

// plainText reports whether r converts to text blocks only (what sdkResult does without
// error for a result that is not rich), so appendTextResult can write it.
func plainText(r *Result) ([]Content, bool) {
	if r == nil {
		return nil, true
	}
	if r.rich() {
		return nil, false
	}
	for _, c := range r.Content {
		if c.Type != "" && c.Type != "text" {
			return nil, false
		}
	}
	return r.Content, true
}

// appendTextResult writes a CallToolResult of text blocks as the SDK's MarshalJSON does, with
// the serverInfo _meta and the resultType of a 2026-07-28 answer when asked.
func appendTextResult(dst []byte, content []Content, isError, serverInfo, resultType bool, serverInfoMeta []byte) []byte {
	size := 64 + len(serverInfoMeta)
	for _, c := range content {
		size += len(c.Text) + len(c.Text)/8 + 32
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
	for i, c := range content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":"text","text":`...)
		dst = jsonstr.Append(dst, c.Text)
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
