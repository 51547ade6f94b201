package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestJudge(t *testing.T) {
	cases := []struct {
		name     string
		line     string
		tooLong  bool
		wantCode int64  // 0: accepted (or ignored when wantKind is "")
		wantID   string // raw JSON id of the rejection; "" means null
		wantKind string // "request", "response" or "" for an accepted line
		wantMsg  string // substring of the rejection message
	}{
		{name: "blank", line: "  \t "},
		{name: "request", line: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantKind: "request"},
		{name: "notification", line: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, wantKind: "request"},
		{name: "request with null id", line: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, wantKind: "request"},
		{name: "response", line: `{"jsonrpc":"2.0","id":"s1","result":{}}`, wantKind: "response"},
		{name: "error response", line: `{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m"}}`, wantKind: "response"},
		{name: "surrounding spaces", line: `  {"jsonrpc":"2.0","id":1,"method":"ping"}  `, wantKind: "request"},
		{name: "garbage", line: "hello", wantCode: jsonrpc.CodeParseError, wantMsg: "Parse error: invalid character"},
		{name: "unterminated", line: `{"jsonrpc":`, wantCode: jsonrpc.CodeParseError, wantMsg: "Parse error"},
		{name: "array", line: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, wantCode: jsonrpc.CodeInvalidRequest, wantMsg: "batch"},
		{name: "number", line: `42`, wantCode: jsonrpc.CodeInvalidRequest, wantMsg: "JSON object, got number"},
		{name: "null", line: `null`, wantCode: jsonrpc.CodeInvalidRequest, wantMsg: "got null"},
		{name: "empty object", line: `{}`, wantCode: jsonrpc.CodeInvalidRequest, wantMsg: `missing "jsonrpc"`},
		{name: "version 1.0", line: `{"jsonrpc":"1.0","id":5,"method":"ping"}`, wantCode: jsonrpc.CodeInvalidRequest, wantID: "5", wantMsg: `"jsonrpc" must be "2.0"`},
		{name: "numeric version", line: `{"jsonrpc":2.0,"id":"a","method":"ping"}`, wantCode: jsonrpc.CodeInvalidRequest, wantID: `"a"`},
		{name: "upper-case key", line: `{"JSONRPC":"2.0","id":1,"method":"ping"}`, wantCode: jsonrpc.CodeInvalidRequest, wantID: "1"},
		{name: "object id", line: `{"jsonrpc":"2.0","id":{},"method":"ping"}`, wantCode: jsonrpc.CodeInvalidRequest, wantMsg: `"id" must be`},
		{name: "array method", line: `{"jsonrpc":"2.0","id":2,"method":["x"]}`, wantCode: jsonrpc.CodeInvalidRequest, wantID: "2", wantMsg: `"method" must be a string`},
		{name: "scalar params", line: `{"jsonrpc":"2.0","id":2,"method":"x","params":1}`, wantCode: jsonrpc.CodeInvalidRequest, wantID: "2", wantMsg: `"params"`},
		{name: "no method no id", line: `{"jsonrpc":"2.0","result":{}}`, wantCode: jsonrpc.CodeInvalidRequest, wantMsg: `needs a "method"`},
		{name: "result and error", line: `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`, wantCode: jsonrpc.CodeInvalidRequest, wantID: "1", wantMsg: "exactly one"},
		{name: "nested too deep for the SDK", line: `{"jsonrpc":"2.0","id":9,"method":"x","params":{"a":` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + `}}`, wantCode: jsonrpc.CodeInvalidRequest, wantID: "9"},
		{name: "too long with id", line: `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"x":"`, tooLong: true, wantCode: jsonrpc.CodeInvalidRequest, wantID: `"big"`, wantMsg: "exceeds the server's limit"},
		{name: "too long without id", line: `{"jsonrpc":"2.0","method":"tools/call","params":{"x":"`, tooLong: true, wantCode: jsonrpc.CodeInvalidRequest, wantMsg: "send smaller arguments"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg, rej := judge(line{data: []byte(tc.line), size: len(tc.line), tooLong: tc.tooLong}, 100, true)
			if tc.wantCode == 0 {
				if rej != nil {
					t.Fatalf("rejected: %d %s", rej.code, rej.message)
				}
				if kind := kindOf(msg); kind != tc.wantKind {
					t.Fatalf("accepted as %q, want %q", kind, tc.wantKind)
				}
				return
			}
			if rej == nil {
				t.Fatalf("accepted %v, want code %d", msg, tc.wantCode)
			}
			if rej.code != tc.wantCode || string(rej.id) != tc.wantID || !strings.Contains(rej.message, tc.wantMsg) {
				t.Fatalf("rejection = {%d %q id=%s}, want {%d ~%q id=%s}", rej.code, rej.message, rej.id, tc.wantCode, tc.wantMsg, tc.wantID)
			}
		})
	}
}

func kindOf(msg jsonrpc.Message) string {
	switch msg.(type) {
	case *jsonrpc.Request:
		return "request"
	case *jsonrpc.Response:
		return "response"
	default:
		return ""
	}
}

func TestRejectionEncode(t *testing.T) {
	cases := []struct {
		rej  *rejection
		want string
	}{
		{parseError("bad"), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: bad"}}` + "\n"},
		{invalidRequest(json.RawMessage(`"x"`), "n=%d", 3), `{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"Invalid Request: n=3"}}` + "\n"},
		{invalidRequest(json.RawMessage(`12`), "m"), `{"jsonrpc":"2.0","id":12,"error":{"code":-32600,"message":"Invalid Request: m"}}` + "\n"},
	}
	for _, tc := range cases {
		if got := string(tc.rej.encode()); got != tc.want {
			t.Errorf("encode = %s, want %s", got, tc.want)
		}
	}
}

func TestPeekID(t *testing.T) {
	cases := []struct{ prefix, want string }{
		{`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"a":"xxx`, "42"},
		{`{"id":"abc"`, `"abc"`},
		{`{"jsonrpc":"2.0","method":"m","params":{"nested":{"id":5},"x":"yyy`, ""},
		{`{"params":{"id":1},"id":2,`, "2"},
		{`{"id":null,"method":"x"`, ""},
		{`{"id":true`, ""},
		{`[{"id":1}`, ""},
		{`garbage`, ""},
		{``, ""},
	}
	for _, tc := range cases {
		if got := string(peekID([]byte(tc.prefix))); got != tc.want {
			t.Errorf("peekID(%q) = %q, want %q", tc.prefix, got, tc.want)
		}
	}
}

func TestWithErrorCode(t *testing.T) {
	id, _ := jsonrpc.MakeID("r")
	cases := []struct {
		name string
		err  error
		want int64
	}{
		{"plain error", errString("method is invalid during session initialization"), jsonrpc.CodeInternalError},
		{"coded error", &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "m"}, jsonrpc.CodeMethodNotFound},
		{"zero code", &jsonrpc.Error{Code: 0, Message: "m"}, jsonrpc.CodeInternalError},
	}
	for _, tc := range cases {
		resp := withErrorCode(&jsonrpc.Response{ID: id, Error: tc.err})
		data, err := jsonrpc.EncodeMessage(resp)
		if err != nil {
			t.Fatal(err)
		}
		var wire struct {
			Error struct {
				Code    int64
				Message string
			}
		}
		if err := json.Unmarshal(data, &wire); err != nil || wire.Error.Code != tc.want || wire.Error.Message != tc.err.Error() {
			t.Errorf("%s: encoded %s, want code %d keeping the message", tc.name, data, tc.want)
		}
	}
	ok := &jsonrpc.Response{ID: id, Result: json.RawMessage(`{}`)}
	if withErrorCode(ok) != ok {
		t.Error("a successful response must pass unchanged")
	}
}

type errString string

func (e errString) Error() string { return string(e) }
