package plugins

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

func TestParseManifestMCP(t *testing.T) {
	src := `plugins:
  everything:
    type: mcp
    command: npx
    args: ["-y", "@modelcontextprotocol/server-everything"]
    env: {API_KEY: "${MY_API_KEY}"}
    cwd: sub
    startup_timeout: 60s
    call_timeout: 2m
    annotations:
      get-sum: {readOnlyHint: true, destructiveHint: false, title: Sum}
  remote:
    type: mcp
    url: http://127.0.0.1:8931/mcp
    headers: {Authorization: "Bearer ${REMOTE_TOKEN}"}
  grpc: {command: bin/x}
`
	m, err := ParseManifest("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := m.Lookup("everything")
	if !e.isMCP() || e.Command != "npx" || e.MCP.Cwd != "sub" || e.MCP.StartupTimeout != time.Minute || e.MCP.CallTimeout != 2*time.Minute ||
		!e.MCP.Annotations["get-sum"].ReadOnly() || e.MCP.Annotations["get-sum"].DestructiveHint == nil || e.MCP.Annotations["get-sum"].Title != "Sum" {
		t.Errorf("everything = %+v", e)
	}
	r, _ := m.Lookup("remote")
	if r.MCP.URL != "http://127.0.0.1:8931/mcp" || strings.Join(r.MCP.Headers, "|") != "Authorization=Bearer ${REMOTE_TOKEN}" ||
		r.MCP.StartupTimeout != DefaultMCPStartupTimeout || r.MCP.CallTimeout != DefaultMCPCallTimeout || r.URLPos().Line != 14 {
		t.Errorf("remote = %+v", r)
	}
	if g, _ := m.Lookup("grpc"); g.isMCP() {
		t.Error("a plugin without type is gRPC")
	}
}

func (s Spec) URLPos() fault.Position { return s.MCP.URLPos }

func TestParseManifestMCPErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []diag
	}{
		{"bad type", "plugins:\n  a: {type: rest, command: x}\n", []diag{{fault.UserPluginsInvalidValue, 2, 13, "type: mcp"}}},
		{"neither command nor url", "plugins:\n  a: {type: mcp}\n", []diag{{fault.UserPluginsMissingCommand, 2, 3, "url:"}}},
		{"both", "plugins:\n  a: {type: mcp, command: x, url: \"http://h/mcp\"}\n", []diag{{fault.UserPluginsInvalidValue, 2, 3, "not both"}}},
		{"bad url", "plugins:\n  a: {type: mcp, url: \"ftp://h\"}\n", []diag{{fault.UserPluginsInvalidURL, 2, 23, "http://"}}},
		{"bad duration", "plugins:\n  a: {type: mcp, command: x, startup_timeout: soon}\n", []diag{{fault.UserPluginsInvalidValue, 2, 47, "30s"}}},
		{"unknown annotation", "plugins:\n  a:\n    type: mcp\n    command: x\n    annotations: {t: {readOnly: true}}\n", []diag{{fault.UserPluginsUnknownKey, 5, 23, "readOnlyHint"}}},
		{"annotation not a bool", "plugins:\n  a:\n    type: mcp\n    command: x\n    annotations: {t: {readOnlyHint: yes please}}\n", []diag{{fault.UserPluginsInvalidValue, 5, 37, "true or false"}}},
		{"unknown key lists mcp keys", "plugins:\n  a: {type: mcp, command: x, urll: y}\n", []diag{{fault.UserPluginsUnknownKey, 2, 30, "did you mean 'url'?"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseManifest("p.yaml", []byte(tt.src))
			var de ports.DiagnosticsError
			if !errors.As(err, &de) {
				t.Fatalf("error %v carries no diagnostics", err)
			}
			ds := de.Diagnostics()
			if len(ds) != len(tt.want) {
				t.Fatalf("diagnostics = %v, want %v", ds, tt.want)
			}
			for i, w := range tt.want {
				d := ds[i]
				if d.Code != w.code || d.Line != w.line || d.Column != w.col || !strings.Contains(d.Hint, w.hint) {
					t.Errorf("diagnostic %d = %s (hint %q), want %v", i, d, d.Hint, w)
				}
			}
		})
	}
}
