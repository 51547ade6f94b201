package direct

import (
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The wire shortcuts of the direct path: each skips work the SDK repeats on every message and
// produces exactly what the SDK's own function would (the tests compare them byte for byte,
// fuzzed), leaving anything unusual to it.

// maxFastLine is the longest input line built into a request from the fields the filter already
// decoded, instead of being decoded a second time by jsonrpc.DecodeMessage. DecodeMessage refuses
// nesting deeper than 1000 levels, which needs more than 1000 bytes, so a line this short is one
// it accepts; tool calls are usually a few hundred bytes.
const maxFastLine = 1000

// RequestFromParts builds the request or notification DecodeMessage would decode from a line of
// size bytes, given its raw id, method and params (already checked by the filter). It declines
// (false) responses, long lines, null params and any id or method that is not plain ASCII
// without escapes, which are then decoded by the SDK as before.
func RequestFromParts(rawID, rawMethod, params json.RawMessage, size int) (jsonrpc.Message, bool) {
	if size > maxFastLine {
		return nil, false
	}
	method, ok := plainString(rawMethod)
	if !ok {
		return nil, false
	}
	if string(params) == "null" {
		return nil, false
	}
	var id jsonrpc.ID
	switch raw := rawID; {
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

// ClassifyFast reads the common line: one JSON object of at most maxFastLine bytes whose keys
// are jsonrpc ("2.0"), method (a plain string), an optional id (a number, a plain string or
// null) and optional params (an object or an array), each once and without escapes. It builds
// the request without decoding the line into a map (two dozen allocations of a tools/call),
// slicing params out of the line (which is not reused). false sends the line through the
// filter's checks, which also report every malformed line.
func ClassifyFast(data []byte) (jsonrpc.Message, bool) {
	if len(data) > maxFastLine || !json.Valid(data) {
		return nil, false
	}
	var version, method, id, params []byte
	ok := eachMember(data, func(key, value []byte) bool {
		var slot *[]byte
		switch string(key) {
		case "jsonrpc":
			slot = &version
		case "method":
			slot = &method
		case "id":
			slot = &id
		case "params":
			slot = &params
		default:
			return false
		}
		if *slot != nil {
			return false
		}
		*slot = value
		return true
	})
	if !ok || string(version) != `"2.0"` || method == nil ||
		params != nil && params[0] != '{' && params[0] != '[' { // null, or params the filter refuses
		return nil, false
	}
	// An id that is not a string, a number or null fails RequestFromParts, which parses it.
	return RequestFromParts(id, method, params, len(data))
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

// EncodeResult renders a successful response with an integer id as one line, as
// jsonrpc.EncodeMessage does, without re-scanning the result: the SDK made it with its own JSON
// encoder, so it is already valid and compact, and EncodeMessage's copy through encoding/json
// (which compacts every RawMessage it meets) only repeats that work. Errors, string ids and
// empty results decline (false).
func EncodeResult(resp *jsonrpc.Response) ([]byte, bool) {
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
