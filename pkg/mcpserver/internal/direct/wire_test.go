package direct

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The shortcuts must accept exactly what the SDK's decoder accepts and produce what it
// produces; these tables compare them with jsonrpc.DecodeMessage and jsonrpc.EncodeMessage.
func TestRequestFromPartsMatchesDecodeMessage(t *testing.T) {
	for _, tc := range []struct {
		line string
		fast bool // whether the shortcut takes it
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"Read","arguments":{"file_path":"/a b"}}}`, true},
		{`{"jsonrpc":"2.0","id":"abc-1","method":"tools/list"}`, true},
		{`{"jsonrpc":"2.0","id":1e3,"method":"ping","params":{}}`, true},
		{`{"jsonrpc":"2.0","id":2.7,"method":"ping"}`, true},
		{`{"jsonrpc":"2.0","id":-4,"method":"ping","params":[1, 2]}`, true},
		{`{ "method" : "notifications/initialized" , "jsonrpc":"2.0", "params": { "a" : 1 } }`, true},
		{`{"jsonrpc":"2.0","id":null,"method":"notifications/cancelled","params":{"requestId":3}}`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"","params":{}}`, true},
		{`{"jsonrpc":"2.0","id":" a~b ","method":"ping"}`, true},
		{exactLine(maxFastLine), true},
		{exactLine(maxFastLine + 1), false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}`, false},
		{`{"jsonrpc":"2.0","id":"a\"b","method":"ping"}`, false},
		{`{"jsonrpc":"2.0","id":"é","method":"ping"}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"to\u006fls/list"}`, false},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Write","arguments":{"content":"` + strings.Repeat("x", 1000) + `"}}}`, false},
	} {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tc.line), &fields); err != nil {
			t.Fatal(err)
		}
		got, ok := RequestFromParts(fields["id"], fields["method"], fields["params"], len(tc.line))
		if ok != tc.fast {
			t.Errorf("%s: shortcut taken = %v, want %v", tc.line, ok, tc.fast)
			continue
		}
		want, err := jsonrpc.DecodeMessage([]byte(tc.line))
		if err != nil {
			t.Fatalf("%s: the SDK refuses it: %v", tc.line, err)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tc.line, got, want)
		}
		if msg, ok := ClassifyFast([]byte(tc.line)); ok && !reflect.DeepEqual(msg, want) {
			t.Errorf("%s: ClassifyFast gives %#v, want %#v", tc.line, msg, want)
		}
	}
}

// exactLine is a tools/call line of exactly n bytes.
func exactLine(n int) string {
	head, tail := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"Write","arguments":{"content":"`, `"}}}`
	return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
}

func TestEncodeResultMatchesEncodeMessage(t *testing.T) {
	result := json.RawMessage(`{"content":[{"type":"text","text":"a\tb\n<&>\u2028"}],"isError":false}`)
	intID, _ := jsonrpc.MakeID(float64(42))
	strID, _ := jsonrpc.MakeID("x")
	for _, tc := range []struct {
		resp *jsonrpc.Response
		fast bool
	}{
		{&jsonrpc.Response{ID: intID, Result: result}, true},
		{&jsonrpc.Response{ID: intID, Result: json.RawMessage(`{}`)}, true},
		{&jsonrpc.Response{ID: strID, Result: result}, false},
		{&jsonrpc.Response{ID: intID, Error: &jsonrpc.Error{Code: -32602, Message: "bad"}}, false},
		{&jsonrpc.Response{ID: intID}, false},
	} {
		got, ok := EncodeResult(tc.resp)
		if ok != tc.fast {
			t.Errorf("%+v: shortcut taken = %v", tc.resp, ok)
		}
		want, err := jsonrpc.EncodeMessage(tc.resp)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		if ok && !bytes.Equal(got, want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
