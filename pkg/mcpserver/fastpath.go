package mcpserver

import (
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The two shortcuts below skip work the SDK repeats on every tool call; each produces exactly
// what the SDK's own function would (the tests compare them byte for byte) and leaves anything
// unusual to it. Together they are most of what separates this server's per-call cost from a
// bare SDK server's, which pays the same repetition (issue 15).

// maxFastLine is the longest input line built into a request from the fields classify already
// decoded, instead of being decoded a second time by jsonrpc.DecodeMessage. DecodeMessage refuses
// nesting deeper than 1000 levels, which needs more than 1000 bytes, so a line this short is one
// it accepts; tool calls are usually a few hundred bytes.
const maxFastLine = 1000

// requestFromFields builds the request or notification DecodeMessage would decode from data,
// given its top-level fields (already checked by checkVersion and checkShape). It declines
// (false) responses, long lines, null params and any id or method that is not plain ASCII
// without escapes, which are then decoded by the SDK as before.
func requestFromFields(fields map[string]json.RawMessage, data []byte) (jsonrpc.Message, bool) {
	if len(data) > maxFastLine {
		return nil, false
	}
	method, ok := plainString(fields["method"])
	if !ok {
		return nil, false
	}
	params := fields["params"]
	if string(params) == "null" {
		return nil, false
	}
	var id jsonrpc.ID
	switch raw := fields["id"]; {
	case raw == nil || string(raw) == "null":
	case raw[0] == '"':
		s, ok := plainString(raw)
		if !ok {
			return nil, false
		}
		id, _ = jsonrpc.MakeID(s) // a string is always a valid id
	default:
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return nil, false
		}
		if id, err = jsonrpc.MakeID(f); err != nil {
			return nil, false
		}
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: params}, true
}

// plainString decodes a JSON string of printable ASCII without escapes; false for anything else.
func plainString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return "", false
		}
	}
	return string(body), true
}

// encodeResult renders a successful response with an integer id as one line, as
// jsonrpc.EncodeMessage does, without re-scanning the result: the SDK made it with its own JSON
// encoder, so it is already valid and compact, and EncodeMessage's copy through encoding/json
// (which compacts every RawMessage it meets) only repeats that work. Errors, string ids and
// empty results decline (false).
func encodeResult(resp *jsonrpc.Response) ([]byte, bool) {
	id, ok := resp.ID.Raw().(int64)
	if !ok || resp.Error != nil || len(resp.Result) == 0 {
		return nil, false
	}
	line := make([]byte, 0, len(resp.Result)+64)
	line = append(line, `{"jsonrpc":"2.0","id":`...)
	line = strconv.AppendInt(line, id, 10)
	line = append(line, `,"result":`...)
	line = append(line, resp.Result...)
	return append(line, "}\n"...), true
}
