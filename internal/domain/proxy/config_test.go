package proxy

import (
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string
	}{
		{"empty object", `{}`, ""},
		{"full", `{"root_dir":"/tmp","intercept_builtins":true,"plugin_tools":[{"plugin":"notes","expose":["get"]}],"intent":{"split":true,"allow":["read"]},"activity_file":"/tmp/a","traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","log_file":"/tmp/l"}`, ""},
		{"unknown key", `{"root":"/tmp"}`, `unknown field "root"`},
		{"relative root", `{"root_dir":"tmp"}`, "must be an absolute path"},
		{"bad variant", `{"intent":{"allow":["delete"]}}`, `intent.allow has "delete"`},
		{"wrong type", `{"intercept_builtins":"yes"}`, "cannot unmarshal"},
		{"nothing to serve", `{"intercept_builtins":false}`, "no tools to serve"},
		{"empty expose", `{"plugin_tools":[{"plugin":"x"}]}`, "expose lists no operation"},
		{"trailing data", `{} {}`, "data after"},
		{"not json", `root_dir: /tmp`, "not valid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(tc.in))
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}
