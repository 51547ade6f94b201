package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The shortcuts must accept exactly what the SDK's decoder accepts and produce what it
// produces; these tables compare them with jsonrpc.DecodeMessage and jsonrpc.EncodeMessage.
func TestRequestFromFieldsMatchesDecodeMessage(t *testing.T) {
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
		got, ok := requestFromFields(fields, []byte(tc.line))
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
		if msg, rej := classify([]byte(tc.line)); rej != nil || !reflect.DeepEqual(msg, want) {
			t.Errorf("%s: classify gives %#v %+v, want %#v", tc.line, msg, rej, want)
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
		got, ok := encodeResult(tc.resp)
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
		line, err := encodeLine(tc.resp)
		if err != nil || (tc.resp.Error == nil && !bytes.Equal(line, want)) {
			t.Errorf("encodeLine: %s %v, want %s", line, err, want)
		}
	}
	// A plain Go error still gets the Internal error code on the slow path.
	line, _ := encodeLine(&jsonrpc.Response{ID: intID, Error: errors.New("boom")})
	if !bytes.Contains(line, []byte(`"code":-32603`)) {
		t.Errorf("plain error: %s", line)
	}
}

// FuzzClassifyFast: whatever line classifyFast takes, the full checks take too and make the
// same request of it, as the SDK's decoder does.
func FuzzClassifyFast(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"Read","arguments":{"file_path":"/a b"}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"ping"}`, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":null,"method":"a","params":[1]}`, `{"method":"a","jsonrpc":"2.0","id":1e2}`,
		`{"jsonrpc":"2.0","id":1,"method":"a","params":null}`, `{"jsonrpc":"2.0","id":true,"method":"a"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		fast, ok := classifyFast([]byte(line))
		if !ok {
			return
		}
		slow, rej := classifyFields([]byte(line))
		if rej != nil || !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%s: fast %#v, full checks %#v %+v", line, fast, slow, rej)
		}
		sdk, err := jsonrpc.DecodeMessage([]byte(line))
		if err != nil || !reflect.DeepEqual(fast, sdk) {
			t.Fatalf("%s: fast %#v, the SDK %#v %v", line, fast, sdk, err)
		}
	})
}
