package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawSession is a session driven with raw lines, its answers read line by line.
type rawSession struct {
	t    *testing.T
	srv  *Server
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startRaw(t *testing.T, srv *Server) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := &rawSession{t: t, srv: srv, in: inW, out: bufio.NewReaderSize(outR, 1<<20), done: make(chan error, 1)}
	go func() { s.done <- srv.Serve(ctx, inR, outW); _ = outW.Close() }()
	t.Cleanup(func() {
		_ = inW.Close()
		cancel()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return s
}

func (s *rawSession) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

func (s *rawSession) next() string {
	s.t.Helper()
	line, err := readLineWithin(s.out, 5*time.Second)
	if err != nil {
		s.t.Fatalf("%v (direct calls so far: %d)", err, s.srv.directCalls.Load())
	}
	return line
}

// blockingTools are a tool that blocks until its call is cancelled, then answers with what
// its context said, and echo.
func blockingTools(started chan<- string) []func() (Tool, Handler) {
	obj := json.RawMessage(`{"type":"object"}`)
	return []func() (Tool, Handler){
		func() (Tool, Handler) {
			return Tool{Name: "block", InputSchema: obj}, func(ctx context.Context, args json.RawMessage) (*Result, error) {
				started <- string(args)
				<-ctx.Done()
				return nil, ctx.Err()
			}
		},
		func() (Tool, Handler) {
			return Tool{Name: "echo", InputSchema: obj}, func(_ context.Context, args json.RawMessage) (*Result, error) {
				return &Result{Content: []Content{{Text: string(args)}}}, nil
			}
		},
	}
}

// TestDirectCancelAndDuplicateIDMatchTheSDK runs the same exchange with the direct path on and
// off: a blocked call, two more requests under its id (dropped, as jsonrpc2 drops them), its
// cancellation by notifications/cancelled, and a call that reuses the id afterwards.
func TestDirectCancelAndDuplicateIDMatchTheSDK(t *testing.T) {
	transcript := func(direct bool) []string {
		started := make(chan string, 4)
		srv := newServer(t, Options{}, blockingTools(started)...)
		srv.noDirect = !direct
		s := startRaw(t, srv)
		var got []string
		s.send(legacyInit)
		got = append(got, s.next())
		s.send(initialized)
		s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"block","arguments":{"n":1}}}`)
		<-started
		// Both requests under the id in use are dropped without an answer.
		s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"n":2}}}`)
		s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`)
		s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}}`)
		got = append(got, s.next())
		s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"n":3}}}`)
		got = append(got, s.next())
		if direct != (srv.directCalls.Load() == 2) {
			t.Errorf("direct %v: %d direct calls", direct, srv.directCalls.Load())
		}
		return got
	}
	sdk, direct := transcript(false), transcript(true)
	if !slices.Equal(sdk, direct) {
		t.Fatalf("the direct path answers\n%s\nthe SDK answers\n%s", strings.Join(direct, ""), strings.Join(sdk, ""))
	}
	if len(sdk) != 3 || !strings.Contains(sdk[1], `"id":5,"error":{"code":-32603,"message":"context canceled"}`) || !strings.Contains(sdk[2], `{\"n\":3}`) {
		t.Fatalf("unexpected answers:\n%s", strings.Join(sdk, ""))
	}
}

// TestDirectCallsEndWithTheInput: EOF cancels a direct call in flight and Serve waits for it.
func TestDirectCallsEndWithTheInput(t *testing.T) {
	started := make(chan string, 1)
	srv := newServer(t, Options{}, blockingTools(started)...)
	s := startRaw(t, srv)
	s.send(legacyInit)
	s.next()
	s.send(initialized)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`)
	<-started
	_ = s.in.Close()
	if line := s.next(); !strings.Contains(line, `"id":1,"error":{"code":-32603,"message":"context canceled"}`) {
		t.Fatalf("answer after EOF: %s", line)
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatal(err)
		}
		s.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after EOF")
	}
	if srv.directCalls.Load() != 1 {
		t.Fatalf("%d direct calls, want 1", srv.directCalls.Load())
	}
}

// jsonStringSeeds are texts whose JSON strings take every escape (pkg/jsonstr tests the
// encoder itself on the same seeds).
var jsonStringSeeds = []string{"", "plain", "<a href=\"x\">&amp;</a>", "\x00\x01\x07\x08\x09\x0a\x0b\x0c\x0d\x1f\x20\x7f",
	"é\u2028\u2029\u2027\u202a", "\xff", "a\xc3", "\xed\xa0\x80", "\U0001F600\\/", strings.Repeat("yyyyyyy\n", 512)}

// TestAppendTextResultMatchesTheSDK compares the direct path's text result with what the SDK
// writes for the same result: its MarshalJSON, with the serverInfo _meta and the resultType a
// 2026-07-28 request gets.
func TestAppendTextResultMatchesTheSDK(t *testing.T) {
	srv := New(Options{Name: "n<&>", Version: "v\u2028"})
	for _, texts := range [][]string{nil, {""}, {"one"}, jsonStringSeeds} {
		for _, isError := range []bool{false, true} {
			for _, mode := range []struct{ serverInfo, resultType bool }{{false, false}, {false, true}, {true, true}} {
				var content []Content
				for _, s := range texts {
					content = append(content, Content{Type: "text", Text: s})
				}
				r := &Result{Content: content, IsError: isError}
				out, err := sdkResult("t", r)
				if err != nil {
					t.Fatal(err)
				}
				if mode.serverInfo {
					out.SetMeta(map[string]any{metaKeyServerInfo: srv.impl})
				}
				want, err := out.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				if mode.resultType {
					want = append(want[:len(want)-1], `,"resultType":"complete"}`...)
				}
				got := appendTextResult(nil, content, isError, mode.serverInfo, mode.resultType, srv.serverInfoMeta())
				if string(got) != string(want) {
					t.Fatalf("texts %q isError %v %+v:\n got %s\nwant %s", texts, isError, mode, got, want)
				}
			}
		}
	}
}

func TestEachMember(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		want map[string]string
	}{
		{`{}`, true, map[string]string{}},
		{` { } `, true, map[string]string{}},
		{`{"a":1,"b":"x\"}","c":{"d":[1,{"e":"]"}]},"f":null,"g":true,"h":-1.5e3,"i":[]}`, true, map[string]string{
			"a": `1`, "b": `"x\"}"`, "c": `{"d":[1,{"e":"]"}]}`, "f": `null`, "g": `true`, "h": `-1.5e3`, "i": `[]`}},
		{"{ \"a\" :\t[ 1 , 2 ] ,\n\"b\" : \"\\\\\" }", true, map[string]string{"a": `[ 1 , 2 ]`, "b": `"\\"`}},
		{`{"a\u0062":1}`, false, nil},
		{`[1]`, false, nil},
		{`"x"`, false, nil},
		{`null`, false, nil},
		{``, false, nil},
	} {
		got := map[string]string{}
		ok := eachMember([]byte(tc.in), func(k, v []byte) bool { got[string(k)] = string(v); return true })
		if ok != tc.ok || ok && !maps.Equal(got, tc.want) {
			t.Errorf("eachMember(%s) = %v %v, want %v %v", tc.in, ok, got, tc.ok, tc.want)
		}
	}
}

// FuzzEachMember checks eachMember against encoding/json on any valid object without escaped
// or repeated keys: the same keys, each with the same raw value.
func FuzzEachMember(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":{"b":[1,"]}"]},"c":"\\\"","d":null}`, ` {"x" : [ ] , "y":{ }} `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var want map[string]json.RawMessage
		if !utf8.ValidString(in) || json.Unmarshal([]byte(in), &want) != nil || want == nil {
			return // encoding/json replaces invalid UTF-8 in keys; the direct path compares bytes
		}
		var keys []string
		got := map[string]json.RawMessage{}
		ok := eachMember([]byte(in), func(k, v []byte) bool {
			keys = append(keys, string(k))
			got[string(k)] = json.RawMessage(v)
			return true
		})
		if !ok {
			if !strings.Contains(in, `\`) && len(keys) == len(got) {
				t.Fatalf("eachMember refused %q", in)
			}
			return
		}
		if len(keys) != len(got) {
			return // a repeated key: encoding/json keeps the last, the direct path declines
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d members, encoding/json %d", in, len(got), len(want))
		}
		for k, v := range want {
			if string(got[k]) != string(v) {
				t.Fatalf("%q: member %q = %s, encoding/json %s", in, k, got[k], v)
			}
		}
	})
}

// TestDirectPathServesTheSDKClient: a go-sdk client (protocol 2026-07-28, per-request _meta)
// gets its calls answered on the direct path once its discover taught the server its _meta.
func TestDirectPathServesTheSDKClient(t *testing.T) {
	srv := newServer(t, Options{}, echo)
	h := startHarness(t, srv, true)
	cs := h.client("")
	for range 3 {
		callEcho(t, cs, "x <&> \u2028")
	}
	if n := srv.directCalls.Load(); n != 3 {
		t.Fatalf("%d of 3 calls took the direct path", n)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "y"}, Meta: mcp.Meta{"progressToken": "p"}})
	if err != nil || textOf(res) != "y" || srv.directCalls.Load() != 3 {
		t.Fatalf("a call with a progress token: %v %v, %d direct calls", textOf(res), err, srv.directCalls.Load())
	}
}

// BenchmarkAppendTextResult is the answer of a 4 KiB Read.
func BenchmarkAppendTextResult(b *testing.B) {
	text := []Content{{Type: "text", Text: strings.Repeat("     1\t"+strings.Repeat("y", 63)+"\n", 64)}}
	buf := make([]byte, 0, 8<<10)
	b.SetBytes(int64(len(text[0].Text)))
	for b.Loop() {
		buf = appendTextResult(buf[:0], text, false, true, true, []byte(`{}`))
	}
}
