package yamlrepo

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

func sandboxWorkflow(block string) string {
	return `name: s
states:
  initial: a
  a:
    type: agent
    provider: codex
    prompt: p
    mcp_proxy:
      enable: true
` + block + `    on_success: d
  d: {type: terminal}
`
}

func TestSandboxBlock(t *testing.T) {
	project := t.TempDir()
	wfDir := filepath.Join(project, ".awf", "workflows")
	os.MkdirAll(wfDir, 0o755)
	os.MkdirAll(filepath.Join(project, "cache"), 0o755)
	load := func(block string) (*workflow.Workflow, string) {
		path := filepath.Join(wfDir, "s.yaml")
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
	w, ds := load("      sandbox: {mode: required, network: false, writable: [cache, " + project + "], readable: [~/.npmrc]}\n")
	if ds != "" {
		t.Fatalf("diagnostics: %s", ds)
	}
	got := w.States["a"].Agent().MCPProxy.Sandbox
	if want := (workflow.SandboxSettings{Mode: "required", Network: false, Writable: []string{"cache", project}, Readable: []string{"~/.npmrc"}}); !reflect.DeepEqual(got, want) {
		t.Fatalf("sandbox = %+v", got)
	}
	w, ds = load("")
	if ds != "" || !reflect.DeepEqual(w.States["a"].Agent().MCPProxy.Sandbox, workflow.DefaultSandbox()) {
		t.Fatalf("default sandbox: %+v %s", w.States["a"].Agent().MCPProxy.Sandbox, ds)
	}
	for _, tc := range []struct{ block, want string }{
		{"      sandbox: {mode: auto, netwrk: false}\n", "s.yaml:10:29: error: unknown key \"netwrk\" in mcp_proxy.sandbox [USER.SANDBOX.INVALID]"},
		{"      sandbox: {mode: strict}\n", "s.yaml:10:23: error: mcp_proxy.sandbox.mode \"strict\" is not a mode [USER.SANDBOX.INVALID]"},
		{"      sandbox: {writable: [cache, missing-dir]}\n", "s.yaml:10:35: error: mcp_proxy.sandbox.writable path \"missing-dir\" does not exist"},
		{"      sandbox: {network: maybe}\n", "network must be true or false"},
	} {
		_, ds := load(tc.block)
		if !strings.Contains(ds, tc.want) {
			t.Errorf("%q: diagnostics %q, want %q", tc.block, ds, tc.want)
		}
	}
	_, ds = load("      sandbox: {mode: auto, netwrk: false}\n")
	if !strings.Contains(ds, "did you mean 'network'") {
		t.Errorf("no did-you-mean: %s", ds)
	}
}
