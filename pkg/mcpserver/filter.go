package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/awf-dev/awf/pkg/mcpserver/internal/direct"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// rejection is the JSON-RPC error answered for a line that cannot be handed
// to the SDK. Answering it, instead of letting the SDK see the line, is what
// keeps one bad line from ending the whole session.
type rejection struct {
	code    int64
	message string
	// id is the raw JSON id of the offending request when it could be read,
	// so the caller waiting on it gets its answer; nil means JSON null.
	id json.RawMessage
}

func parseError(detail string) *rejection {
	return &rejection{code: jsonrpc.CodeParseError, message: "Parse error: " + detail}
}

func invalidRequest(id json.RawMessage, format string, args ...any) *rejection {
	return &rejection{code: jsonrpc.CodeInvalidRequest, message: "Invalid Request: " + fmt.Sprintf(format, args...), id: id}
}

// encode renders the rejection as one newline-terminated JSON-RPC response.
func (r *rejection) encode() []byte {
	id := r.id
	if id == nil {
		id = json.RawMessage("null")
	}
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id}
	resp.Error.Code = r.code
	resp.Error.Message = r.message
	data, err := json.Marshal(resp)
	if err != nil {
		// Only an id that is not valid JSON can fail here, and ids are
		// validated before they are kept; answer with a null id regardless.
		r.id = nil
		return r.encode()
	}
	return append(data, '\n')
}

// judge decides what to do with one line: nothing (blank line), hand a
// decoded message to the SDK, or answer a rejection.
func judge(l line, limit int, fast bool) (jsonrpc.Message, *rejection) {
	if l.tooLong {
		return nil, invalidRequest(peekID(l.data),
			"message of %d bytes exceeds the server's limit of %d bytes per line; send smaller arguments", l.size, limit)
	}
	data := bytes.TrimSpace(l.data)
	if len(data) == 0 {
		return nil, nil
	}
	return classify(data, fast)
}

// classify checks that data is a single JSON-RPC 2.0 request, notification or
// response, then decodes it with the SDK's own decoder, so that whatever is
// forwarded is exactly what the SDK would have accepted from the wire. fast lets the
// wire shortcuts of the direct path build the message from fields already read (AccelDirect).
func classify(data []byte, fast bool) (jsonrpc.Message, *rejection) {
	if !fast {
		return classifyFields(data, false)
	}
	if msg, ok := direct.ClassifyFast(data); ok {
		return msg, nil
	}
	return classifyFields(data, true)
}

// classifyFields is classify for any line: decoded into its top-level fields, each checked.
func classifyFields(data []byte, fast bool) (jsonrpc.Message, *rejection) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			return nil, parseError(err.Error())
		}
		// Unmarshal validates the whole input before decoding, so a type
		// error means the line is valid JSON of the wrong shape.
		if data[0] == '[' {
			return nil, invalidRequest(nil, "batch (array) messages are not supported; send one JSON-RPC object per line")
		}
		return nil, invalidRequest(nil, "a message must be a JSON object, got %s", typeErr.Value)
	}
	if fields == nil {
		return nil, invalidRequest(nil, "a message must be a JSON object, got null")
	}
	id, hasID := fields["id"]
	if hasID && !validID(id) {
		return nil, invalidRequest(nil, `"id" must be a string, a number or null, got %s`, id)
	}
	if string(id) == "null" {
		id = nil
	}
	if rej := checkVersion(fields, id); rej != nil {
		return nil, rej
	}
	if rej := checkShape(fields, id); rej != nil {
		return nil, rej
	}
	if fast {
		if msg, ok := direct.RequestFromParts(fields["id"], fields["method"], fields["params"], len(data)); ok {
			return msg, nil
		}
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return nil, invalidRequest(id, "%v", err)
	}
	return msg, nil
}

func checkVersion(fields map[string]json.RawMessage, id json.RawMessage) *rejection {
	raw, ok := fields["jsonrpc"]
	if !ok {
		return invalidRequest(id, `missing "jsonrpc": "2.0"`)
	}
	var version string
	if err := json.Unmarshal(raw, &version); err != nil || version != "2.0" {
		return invalidRequest(id, `"jsonrpc" must be "2.0", got %s`, raw)
	}
	return nil
}

// checkShape tells requests and notifications (which have a method) from
// responses (which have an id and exactly one of result or error).
func checkShape(fields map[string]json.RawMessage, id json.RawMessage) *rejection {
	if raw, ok := fields["method"]; ok {
		var method string
		if err := json.Unmarshal(raw, &method); err != nil {
			return invalidRequest(id, `"method" must be a string, got %s`, raw)
		}
		if params, ok := fields["params"]; ok && string(params) != "null" && params[0] != '{' && params[0] != '[' {
			return invalidRequest(id, `"params" must be an object, got %s`, params)
		}
		return nil
	}
	if id == nil {
		return invalidRequest(nil, `a message needs a "method" (request or notification) or an "id" (response)`)
	}
	_, hasResult := fields["result"]
	_, hasError := fields["error"]
	if hasResult == hasError {
		return invalidRequest(id, `a message without "method" is a response and needs exactly one of "result" or "error"`)
	}
	return nil
}

// validID reports whether raw is a JSON string, number or null, the only id
// types JSON-RPC 2.0 allows.
func validID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	switch c := raw[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return true
	default:
		return string(raw) == "null"
	}
}

// peekID recovers the id of a request from the leading bytes of a line that
// was too long to buffer, walking the top-level keys until "id" is found or
// the truncated input runs out. It returns nil when no usable id is found.
func peekID(prefix []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if key, _ := tok.(string); key == "id" {
			if validID(value) && string(value) != "null" {
				return value
			}
			return nil
		}
	}
	return nil
}
