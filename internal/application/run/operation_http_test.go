package run

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// TestHTTPRequestURLAndHeaders: an http.request url gets each value escaped for its URL part,
// and a value that would send the request elsewhere or add a header stops the run, coded.
func TestHTTPRequestURLAndHeaders(t *testing.T) {
	tests := []struct {
		name     string
		url      string
		headers  map[string]any
		v        string
		wantURL  string
		wantCode string
	}{
		{name: "traversal stays one segment", url: "https://api.test/items/{{.inputs.v}}", v: "../../admin/delete?x=1#f",
			wantURL: "https://api.test/items/..%2F..%2Fadmin%2Fdelete%3Fx=1%23f"},
		{name: "query value", url: "https://api.test/s?q={{.inputs.v}}&page=2", v: "a&page=9", wantURL: "https://api.test/s?q=a%26page%3D9&page=2"},
		{name: "namespace form", url: "https://api.test/u/{{inputs.v}}", v: "é @\\", wantURL: "https://api.test/u/%C3%A9%20@%5C"},
		{name: "raw path", url: "https://api.test/{{raw .inputs.v}}", v: "repos/a/b", wantURL: "https://api.test/repos/a/b"},
		{name: "static url untouched", url: "https://api.test/x?y=1", v: "z", wantURL: "https://api.test/x?y=1"},
		{name: "value as host", url: "https://{{.inputs.v}}/x", v: "evil.test", wantCode: fault.UserTemplateURLPlace},
		{name: "raw host moved by a value", url: "https://api.test{{raw .inputs.v}}/x", v: ".evil.test", wantURL: "https://api.test.evil.test/x"},
		{name: "dot segment", url: "https://api.test/items/{{.inputs.v}}", v: "..", wantCode: fault.UserTemplateURLChanged},
		{name: "crlf in a header value", url: "https://api.test/", headers: map[string]any{"X-Id": "{{.inputs.v}}"}, v: "1\r\nX-Admin: yes", wantCode: fault.UserOperationHeaderValue},
		{name: "plain header value", url: "https://api.test/", headers: map[string]any{"X-Id": "{{.inputs.v}}"}, v: "1 2", wantURL: "https://api.test/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops := &fakeOps{}
			in := map[string]any{"method": "GET", "url": tt.url}
			if tt.headers != nil {
				in["headers"] = tt.headers
			}
			wf := machine("ops", []workflow.Input{{Name: "v", Type: workflow.InputString}}, opState("op", "http.request", in))
			_, err := newRun(t, Options{Operations: ops}).Run(context.Background(), wf, map[string]string{"v": tt.v})
			if tt.wantCode != "" {
				if fault.CodeOf(err) != tt.wantCode || ops.got != nil {
					t.Fatalf("err %v (sent %v), want %s and nothing sent", err, ops.got, tt.wantCode)
				}
				if strings.Contains(err.Error(), "X-Admin") {
					t.Errorf("the error repeats the value: %v", err)
				}
				return
			}
			if ops.got["url"] != tt.wantURL { // the fake answers a failure: the run ends in ko
				t.Fatalf("url %q, err %v; want %q", ops.got["url"], err, tt.wantURL)
			}
		})
	}
}
