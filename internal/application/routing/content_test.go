package routing

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// A bridged server's rich result goes through the router unchanged; the record and the log
// line keep the kind and size of its non-text blocks, never their bytes; an error result's text
// is redacted as ever.
func TestRichResultPassesThroughAndIsSummarised(t *testing.T) {
	img := json.RawMessage(`{"type":"image","mimeType":"image/png","data":"c2VjcmV0LWJ5dGVz"}`)
	want := tool.Result{
		Content:    []tool.Content{{Type: "text", Text: "token sk-live-1234"}, {Type: "image", Text: "[image image/png, 12 bytes]", Raw: img}},
		IsError:    true,
		Structured: json.RawMessage(`{"n":1}`),
		Meta:       json.RawMessage(`{"m":true}`),
	}
	src := tool.MCPSource("everything")
	p := &fakeProvider{source: src, defs: []tool.Definition{def("everything_pic", src, `{"type":"object"}`)},
		call: func(context.Context, string, json.RawMessage) (tool.Result, error) { return want, nil }}
	sink := &memSink{}
	core, logs := observer.New(zap.InfoLevel)
	red := redact.New([]string{"MY_API_KEY=sk-live-1234"})
	r, err := NewRouter(context.Background(), Options{Activity: sink, Logger: zap.New(core), Redactor: red}, p)
	if err != nil {
		t.Fatal(err)
	}
	got := r.CallTool(context.Background(), "everything_pic", nil)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("result changed on the way: %+v", got)
	}
	recs := sink.all()
	sums := []tool.ContentSummary{{Type: "image", MIMEType: "image/png", Bytes: 12}, {Type: "structured", Bytes: 7}}
	if len(recs) != 1 || !reflect.DeepEqual(recs[0].Content, sums) {
		t.Fatalf("records = %+v", recs)
	}
	if e := recs[0].Error; strings.Contains(e, "sk-live") || strings.Contains(e, "c2VjcmV0") || !strings.Contains(e, "[image image/png, 12 bytes]") {
		t.Errorf("recorded error = %q", e)
	}
	entries := logs.All()
	if len(entries) != 1 || !reflect.DeepEqual(entries[0].ContextMap()["content"], sums) {
		t.Errorf("log line = %+v", entries)
	}
	// A text-only result records no content summary.
	p.call = func(context.Context, string, json.RawMessage) (tool.Result, error) { return tool.Text("x"), nil }
	r.CallTool(context.Background(), "everything_pic", nil)
	if recs := sink.all(); len(recs) != 2 || recs[1].Content != nil {
		t.Errorf("text-only record = %+v", recs[len(recs)-1])
	}
	if _, ok := logs.All()[1].ContextMap()["content"]; ok {
		t.Error("a text-only call logged a content field")
	}
}

// In split mode the rich result comes back from call_tool_read as it does from the tool itself.
func TestRichResultThroughSplitMode(t *testing.T) {
	img := json.RawMessage(`{"type":"image","mimeType":"image/png","data":"AQ=="}`)
	want := tool.Result{Content: []tool.Content{{Type: "image", Text: "[image image/png, 1 bytes]", Raw: img}}, Structured: json.RawMessage(`{"n":1}`)}
	src := tool.MCPSource("fix")
	d := def("fix_pic", src, `{"type":"object"}`)
	d.Annotations = tool.Annotations{ReadOnlyHint: tool.Bool(true)}
	p := &fakeProvider{source: src, defs: []tool.Definition{d},
		call: func(context.Context, string, json.RawMessage) (tool.Result, error) { return want, nil }}
	r, err := NewRouter(context.Background(), Options{}, p)
	if err != nil {
		t.Fatal(err)
	}
	got := NewExposure(r, split()).CallTool(context.Background(), "call_tool_read", json.RawMessage(`{"name":"fix_pic","args":{}}`))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("split call = %+v", got)
	}
}
