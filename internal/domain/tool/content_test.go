package tool

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestContentSummary(t *testing.T) {
	for _, c := range []struct {
		name  string
		block Content
		want  ContentSummary
	}{
		{"plain text", Content{Type: "text", Text: "héllo"}, ContentSummary{Type: "text", Bytes: 6}},
		{"image padded", Content{Type: "image", Raw: json.RawMessage(`{"type":"image","mimeType":"image/png","data":"AQIDBA=="}`)}, ContentSummary{Type: "image", MIMEType: "image/png", Bytes: 4}},
		{"audio one pad", Content{Type: "audio", Raw: json.RawMessage(`{"type":"audio","mimeType":"audio/wav","data":"AQID"}`)}, ContentSummary{Type: "audio", MIMEType: "audio/wav", Bytes: 3}},
		{"data two bytes", Content{Raw: json.RawMessage(`{"type":"image","data":"AQI="}`)}, ContentSummary{Type: "image", Bytes: 2}},
		{"data unpadded", Content{Raw: json.RawMessage(`{"type":"image","data":"AQI"}`)}, ContentSummary{Type: "image", Bytes: 2}},
		{"data unpadded one", Content{Raw: json.RawMessage(`{"type":"image","data":"AQIDBA"}`)}, ContentSummary{Type: "image", Bytes: 4}},
		{"link with size", Content{Raw: json.RawMessage(`{"type":"resource_link","uri":"file:///a","mimeType":"text/plain","size":12}`)}, ContentSummary{Type: "resource_link", URI: "file:///a", MIMEType: "text/plain", Bytes: 12}},
		{"embedded text", Content{Raw: json.RawMessage(`{"type":"resource","resource":{"uri":"mem://x","mimeType":"text/plain","text":"hello"}}`)}, ContentSummary{Type: "resource", URI: "mem://x", MIMEType: "text/plain", Bytes: 5}},
		{"embedded blob", Content{Raw: json.RawMessage(`{"type":"resource","resource":{"uri":"mem://b","blob":"AAEC"}}`)}, ContentSummary{Type: "resource", URI: "mem://b", Bytes: 3}},
		{"annotated text", Content{Type: "text", Text: "x", Raw: json.RawMessage(`{"type":"text","text":"abc","annotations":{"priority":1}}`)}, ContentSummary{Type: "text", Bytes: 3}},
		{"broken raw", Content{Type: "image", Raw: json.RawMessage(`{"type":`)}, ContentSummary{Type: "image", Bytes: 8}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.block.Summary(); got != c.want {
				t.Errorf("Summary = %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestSummaryText(t *testing.T) {
	for _, c := range []struct {
		s    ContentSummary
		want string
	}{
		{ContentSummary{Type: "image", MIMEType: "image/png", Bytes: 68}, "[image image/png, 68 bytes]"},
		{ContentSummary{Type: "resource_link", URI: "file:///a", Bytes: 0}, "[resource_link file:///a, 0 bytes]"},
		{ContentSummary{Type: "resource", URI: "u", MIMEType: "m", Bytes: 1}, "[resource u m, 1 bytes]"},
	} {
		if got := SummaryText(c.s); got != c.want {
			t.Errorf("SummaryText(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestSummaries(t *testing.T) {
	if got := (Result{Content: []Content{{Type: "json", Text: "{}"}}}).Summaries(); got != nil {
		t.Errorf("a typed block without raw has summaries: %+v", got)
	}
	if got := Text("only text").Summaries(); got != nil {
		t.Errorf("a text-only result has summaries: %+v", got)
	}
	r := Result{Content: []Content{
		{Type: "text", Text: "t"},
		{Type: "text", Text: "a", Raw: json.RawMessage(`{"type":"text","text":"a","_meta":{"k":1}}`)},
		{Type: "image", Raw: json.RawMessage(`{"type":"image","mimeType":"image/gif","data":"AQ=="}`)},
	}, Structured: json.RawMessage(`{"n":1}`)}
	want := []ContentSummary{{Type: "image", MIMEType: "image/gif", Bytes: 1}, {Type: "structured", Bytes: 7}}
	if got := r.Summaries(); !reflect.DeepEqual(got, want) {
		t.Errorf("Summaries = %+v, want %+v", got, want)
	}
}

func TestModelText(t *testing.T) {
	img := `{"type":"image","data":"AQ=="}`
	for _, c := range []struct {
		name string
		r    Result
		want string
	}{
		{"text only is JoinedText", Result{Content: []Content{{Type: "text", Text: "a"}, {Type: "text", Text: "b"}}}, "a\nb"},
		{"image as JSON", Result{Content: []Content{{Type: "text", Text: "a"}, {Type: "image", Text: "[image]", Raw: json.RawMessage(img)}}}, "a\n" + img},
		{"annotated text stays text", Result{Content: []Content{{Type: "text", Text: "a", Raw: json.RawMessage(`{"type":"text","text":"a","annotations":{}}`)}}}, "a"},
		{"structured mirrored by text is not repeated", Result{Content: []Content{{Type: "text", Text: `{"n":1}`}}, Structured: json.RawMessage(`{"n":1}`)}, `{"n":1}`},
		{"structured alone", Result{Structured: json.RawMessage(`{"n":1}`)}, `{"n":1}`},
		{"structured after an image", Result{Content: []Content{{Type: "image", Raw: json.RawMessage(img)}}, Structured: json.RawMessage(`{"n":1}`)}, img + "\n" + `{"n":1}`},
		{"empty", Result{}, ""},
		{"image alone", Result{Content: []Content{{Type: "image", Raw: json.RawMessage(img)}}}, img},
		{"a typed block without raw is read as text", Result{Content: []Content{{Type: "json", Text: `{"a":1}`}}}, `{"a":1}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.r.ModelText(); got != c.want {
				t.Errorf("ModelText = %q, want %q", got, c.want)
			}
		})
	}
}
