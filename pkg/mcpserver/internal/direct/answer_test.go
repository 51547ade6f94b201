package direct

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// jsonStringSeeds are texts whose JSON strings take every escape (pkg/jsonstr tests the
// encoder itself on the same seeds).
var jsonStringSeeds = []string{"", "plain", "<a href=\"x\">&amp;</a>", "\x00\x01\x07\x08\x09\x0a\x0b\x0c\x0d\x1f\x20\x7f",
	"é\u2028\u2029\u2027\u202a", "\xff", "a\xc3", "\xed\xa0\x80", "\U0001F600\\/", strings.Repeat("yyyyyyy\n", 512)}

// TestAppendTextResultMatchesTheSDK compares the direct path's text result with what the SDK
// writes for the same result: its MarshalJSON, with the serverInfo _meta and the resultType a
// ModernProtocol request gets, and with what sdkAnswer writes.
func TestAppendTextResultMatchesTheSDK(t *testing.T) {
	impl := &mcp.Implementation{Name: "n<&>", Version: "v\u2028"}
	srv := NewServer(nil, impl, nil)
	for _, texts := range [][]string{nil, {""}, {"one"}, jsonStringSeeds} {
		for _, isError := range []bool{false, true} {
			for _, mode := range []struct{ serverInfo, resultType bool }{{false, false}, {false, true}, {true, true}} {
				out := &mcp.CallToolResult{Content: []mcp.Content{}, IsError: isError}
				for _, s := range texts {
					out.Content = append(out.Content, &mcp.TextContent{Text: s})
				}
				viaSDK, err := srv.sdkAnswer(&mcp.CallToolResult{Content: out.Content, IsError: isError}, mode.serverInfo, mode.resultType)
				if err != nil {
					t.Fatal(err)
				}
				if mode.serverInfo {
					out.SetMeta(map[string]any{mcp.MetaKeyServerInfo: impl})
				}
				want, err := out.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				if mode.resultType {
					want = append(want[:len(want)-1], `,"resultType":"complete"}`...)
				}
				got := AppendTextResult(nil, texts, isError, mode.serverInfo, mode.resultType, srv.serverInfoMeta())
				if string(got) != string(want) || !bytes.Equal(viaSDK, want) {
					t.Fatalf("texts %q isError %v %+v:\n got %s\nwant %s\nsdkAnswer %s", texts, isError, mode, got, want, viaSDK)
				}
			}
		}
	}
}

// plainText takes text blocks only, without annotations, _meta or structuredContent.
func TestPlainText(t *testing.T) {
	text := &mcp.TextContent{Text: "a"}
	for _, tc := range []struct {
		res  *mcp.CallToolResult
		want bool
	}{
		{&mcp.CallToolResult{}, true},
		{&mcp.CallToolResult{Content: []mcp.Content{text, text}, IsError: true}, true},
		{&mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte("x"), MIMEType: "image/png"}}}, false},
		{&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a", Annotations: &mcp.Annotations{Priority: 1}}}}, false},
		{&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a", Meta: mcp.Meta{"k": 1}}}}, false},
		{&mcp.CallToolResult{Content: []mcp.Content{text}, StructuredContent: map[string]any{}}, false},
		{&mcp.CallToolResult{Content: []mcp.Content{text}, Meta: mcp.Meta{"k": 1}}, false},
	} {
		if _, ok := plainText(tc.res); ok != tc.want {
			t.Errorf("plainText(%+v) = %v, want %v", tc.res, ok, tc.want)
		}
	}
}

// The go-sdk this module links answers as the direct path writes; were it not so, the path
// would stand aside (see Check), and this test says why.
func TestCheckPassesWithTheLinkedSDK(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	if !Passed() || !NewServer(nil, &mcp.Implementation{Name: "x"}, nil).Ready() {
		t.Fatal("Check passed, yet the direct path is not ready")
	}
}

// BenchmarkAppendTextResult is the answer of a 4 KiB Read.
func BenchmarkAppendTextResult(b *testing.B) {
	text := []string{strings.Repeat("     1\t"+strings.Repeat("y", 63)+"\n", 64)}
	buf := make([]byte, 0, 8<<10)
	b.SetBytes(int64(len(text[0])))
	for b.Loop() {
		buf = AppendTextResult(buf[:0], text, false, true, true, []byte(`{}`))
	}
}

// A failed Check keeps the direct path off: the server it would have accelerated is told why,
// and its connections take nothing.
func TestFailedCheckKeepsThePathOff(t *testing.T) {
	told := make(chan error, 1)
	s := newServer(nil, &mcp.Implementation{Name: "x"}, func(err error) { told <- err },
		func() error { return errors.New("the SDK changed") }, func() bool { return false })
	if err := <-told; err == nil || s.Ready() {
		t.Fatalf("after a failed Check: told %v, ready %v", err, s.Ready())
	}
	p := s.Open(context.Background())
	defer p.Stop(nil)
	id, _ := jsonrpc.MakeID(float64(1))
	if p.Take(&jsonrpc.Request{ID: id, Method: "tools/call"}, func([]byte) { t.Error("wrote an answer") }) {
		t.Fatal("a path whose Check failed took a call")
	}
	var none *Server
	if none.Ready() || none.Open(context.Background()) != nil {
		t.Fatal("a nil Server is ready or opens a path")
	}
}
