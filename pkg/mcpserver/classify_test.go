package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/pkg/mcpserver/internal/direct"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// classify, with the direct path's wire shortcuts and without, makes of a line what the SDK's
// decoder makes of it.
func TestClassifyMatchesDecodeMessage(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"Read","arguments":{"file_path":"/a b"}}}`,
		`{"jsonrpc":"2.0","id":"abc-1","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2.7,"method":"ping","params":[1, 2]}`,
		`{ "method" : "notifications/initialized" , "jsonrpc":"2.0", "params": { "a" : 1 } }`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}`,
		`{"jsonrpc":"2.0","id":"a\"b","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"to\u006fls/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Write","arguments":{"content":"` + strings.Repeat("x", 1000) + `"}}}`,
	} {
		want, err := jsonrpc.DecodeMessage([]byte(line))
		if err != nil {
			t.Fatalf("%s: the SDK refuses it: %v", line, err)
		}
		for _, fast := range []bool{false, true} {
			if msg, rej := classify([]byte(line), fast); rej != nil || !reflect.DeepEqual(msg, want) {
				t.Errorf("%s (fast %v): classify gives %#v %+v, want %#v", line, fast, msg, rej, want)
			}
		}
	}
}

// encodeLine writes what jsonrpc.EncodeMessage writes, with the shortcut and without, and gives
// a plain Go error the Internal error code.
func TestEncodeLineMatchesEncodeMessage(t *testing.T) {
	intID, _ := jsonrpc.MakeID(float64(42))
	strID, _ := jsonrpc.MakeID("x")
	result := json.RawMessage(`{"content":[{"type":"text","text":"a\tb\n<&>\u2028"}]}`)
	for _, resp := range []*jsonrpc.Response{{ID: intID, Result: result}, {ID: strID, Result: result},
		{ID: intID, Error: &jsonrpc.Error{Code: -32602, Message: "bad"}}} {
		want, err := jsonrpc.EncodeMessage(resp)
		if err != nil {
			t.Fatal(err)
		}
		for _, fast := range []bool{false, true} {
			if line, err := encodeLine(resp, fast); err != nil || !bytes.Equal(line, append(want, '\n')) {
				t.Errorf("encodeLine (fast %v): %s %v, want %s", fast, line, err, want)
			}
		}
	}
	for _, fast := range []bool{false, true} {
		line, _ := encodeLine(&jsonrpc.Response{ID: intID, Error: errors.New("boom")}, fast)
		if !bytes.Contains(line, []byte(`"code":-32603`)) {
			t.Errorf("plain error (fast %v): %s", fast, line)
		}
	}
}

// FuzzClassifyFast: whatever line the direct path's ClassifyFast takes, the filter's full checks
// without shortcuts take too and make the same request of it, as the SDK's decoder does.
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
		fast, ok := direct.ClassifyFast([]byte(line))
		if !ok {
			return
		}
		slow, rej := classifyFields([]byte(line), false)
		if rej != nil || !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%s: fast %#v, full checks %#v %+v", line, fast, slow, rej)
		}
		sdk, err := jsonrpc.DecodeMessage([]byte(line))
		if err != nil || !reflect.DeepEqual(fast, sdk) {
			t.Fatalf("%s: fast %#v, the SDK %#v %v", line, fast, sdk, err)
		}
	})
}
