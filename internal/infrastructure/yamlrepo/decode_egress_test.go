package yamlrepo

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestSandboxNetworkLists(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".awf", "workflows")
	os.MkdirAll(dir, 0o755)
	load := func(block string) (*workflow.Workflow, string) {
		path := filepath.Join(dir, "s.yaml")
		if err := os.WriteFile(path, []byte(sandboxWorkflow(block)), 0o600); err != nil {
			t.Fatal(err)
		}
		w, ds, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range ds {
			out = append(out, d.String())
		}
		return w, strings.Join(out, "\n")
	}
	w, ds := load("      sandbox:\n        network:\n          allow: [api.example.com, \"*.pypi.org:443\"]\n          deny: [10.0.0.1]\n")
	if ds != "" {
		t.Fatalf("diagnostics: %s", ds)
	}
	m := w.States["a"].Agent().MCPProxy
	want := workflow.SandboxSettings{Mode: "auto", Network: false, Egress: &workflow.Egress{Allow: []string{"api.example.com", "*.pypi.org:443"}, Deny: []string{"10.0.0.1"}}}
	if !reflect.DeepEqual(m.Sandbox, want) {
		t.Fatalf("sandbox = %+v, egress %+v", m.Sandbox, m.Sandbox.Egress)
	}
	if p := m.ValueAt("sandbox.network.allow[1]"); p.Line != 12 || p.Column != 36 {
		t.Errorf("allow[1] at %v", p)
	}
	// An empty allow list is a list: nothing is allowed, unlike network: true.
	w, ds = load("      sandbox: {network: {allow: []}}\n")
	if e := w.States["a"].Agent().MCPProxy.Sandbox; ds != "" || e.Network || e.Egress == nil || len(e.Egress.Allow) != 0 {
		t.Fatalf("empty allow: %+v %s", e, ds)
	}
	for _, tc := range []struct{ block, want string }{
		{"      sandbox: {network: {alow: [a.example]}}\n", "unknown key \"alow\" in mcp_proxy.sandbox.network [USER.SANDBOX.INVALID]"},
		{"      sandbox: {network: {allow: a.example}}\n", "sandbox.network.allow"},
		{"      sandbox: {network: [a.example]}\n", "network must be true or false"},
	} {
		_, ds := load(tc.block)
		if !strings.Contains(ds, tc.want) {
			t.Errorf("%q: diagnostics %q, want %q", tc.block, ds, tc.want)
		}
	}
}
