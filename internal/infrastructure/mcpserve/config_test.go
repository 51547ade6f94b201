package mcpserve

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
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
		{"ask", `{"intent":{"ask":["destructive"],"approval_timeout":"2s"},"approvals_dir":"/r/approvals"}`, ""},
		{"bad ask variant", `{"intent":{"ask":["delete"]}}`, `intent.ask has "delete"`},
		{"bad approval timeout", `{"intent":{"approval_timeout":"soon"}}`, `intent.approval_timeout "soon"`},
		{"negative approval timeout", `{"intent":{"approval_timeout":"-1s"}}`, `intent.approval_timeout "-1s"`},
		{"relative approvals dir", `{"approvals_dir":"approvals"}`, `approvals_dir "approvals" must be an absolute path`},
		{"wrong type", `{"intercept_builtins":"yes"}`, "cannot unmarshal"},
		{"nothing to serve", `{"intercept_builtins":false}`, "no tools to serve"},
		{"plugins only", `{"intercept_builtins":false,"plugin_tools":[{"plugin":"x","expose":["y"]}]}`, ""},
		{"empty expose", `{"plugin_tools":[{"plugin":"x"}]}`, "expose lists no operation"},
		{"empty plugin", `{"plugin_tools":[{"plugin":"","expose":["y"]}]}`, "plugin_tools[0].plugin is empty"},
		{"trailing data", `{} {}`, "data after"},
		{"not json", `root_dir: /tmp`, "not valid"},
		{"sandbox", `{"sandbox":{"mode":"required","network":false,"writable":["../cache"]}}`, ""},
		{"sandbox bad mode", `{"sandbox":{"mode":"strict"}}`, `sandbox.mode "strict"`},
		{"sandbox unknown key", `{"sandbox":{"net":false}}`, `unknown field "net"`},
		{"served by awf-serve", `{"serve_with":"awf-serve"}`, ""},
		{"served by awf", `{"serve_with":"awf","plugin_tools":[{"plugin":"x","expose":["y"]}]}`, ""},
		{"served by another binary", `{"serve_with":"awf-lite"}`, `serve_with "awf-lite" must be awf-serve or awf`},
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

func TestSandboxRoundTrips(t *testing.T) {
	spec := toolset.Spec{Builtins: true, Intent: toolset.DefaultIntent(), Sandbox: toolset.Sandbox{Mode: "required", Network: false, Writable: []string{"../cache"}, Readable: []string{"~/.npmrc"}}}
	b, err := Encode(spec)
	if err != nil || !strings.Contains(string(b), `"sandbox": {`) || !strings.Contains(string(b), `"network": false`) {
		t.Fatalf("Encode: %s %v", b, err)
	}
	got, err := Decode(strings.NewReader(string(b)))
	if err != nil || !reflect.DeepEqual(got.Sandbox, spec.Sandbox) {
		t.Fatalf("round trip: %+v %v", got.Sandbox, err)
	}
	// A block without network keeps the network on.
	got, _ = Decode(strings.NewReader(`{"sandbox":{"mode":"auto"}}`))
	if !got.Sandbox.Network || got.Sandbox.Mode != "auto" {
		t.Fatalf("defaults inside the block: %+v", got.Sandbox)
	}
}

func TestDecodeFillsDefaults(t *testing.T) {
	want := toolset.Spec{Builtins: true, Intent: toolset.Intent{Strict: true}}
	if got := Defaults(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Defaults() = %+v", got)
	}
	got, err := Decode(strings.NewReader(`{"intent":{"split":true,"require_declaration":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	want.Intent = toolset.Intent{Split: true, Strict: true, RequireDeclaration: true}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("intent without strict_server_validation = %+v", got)
	}
	got, err = Decode(strings.NewReader(`{"intercept_builtins":true,"intent":{"strict_server_validation":false,"allow":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Intent.Strict || got.Intent.Allow == nil || len(got.Intent.Allow) != 0 || !got.Builtins {
		t.Fatalf("lenient, allow nothing = %+v", got)
	}
}

func TestEncodeRoundTrips(t *testing.T) {
	specs := []toolset.Spec{
		{
			Root: "/w", Builtins: true,
			PluginTools: []toolset.PluginTools{{Plugin: "notes", Expose: []string{"get", "put"}}},
			Intent: toolset.Intent{Split: true, Allow: []tool.Variant{tool.VariantRead}, Strict: true, RequireDeclaration: true,
				Ask: []tool.Variant{tool.VariantRead}, ApprovalTimeout: 2 * time.Second},
			ApprovalsDir: "/r/approvals",
			ActivityFile: "/r/a.jsonl", LogFile: "/r/run.log", ReadyFile: "/t/ready.json", RunID: "r1", Step: "review",
			PluginsFile: "/p/plugins.yaml", PluginCommands: []string{"/p/bin/notes"}, BashEnv: []string{"A=1"}, HideEnv: []string{"MY_KEY"},
			OTelEnv:     map[string]string{"OTEL_SERVICE_NAME": "x"},
			Traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
		},
		{Builtins: true, Intent: toolset.Intent{Allow: []tool.Variant{}}},
		// Resolved to none is not the same as not resolved (nil): awf-serve hands the latter to awf.
		{Builtins: true, PluginsFile: "/p/plugins.yaml", PluginCommands: []string{}},
		{PluginTools: []toolset.PluginTools{{Plugin: "p", Expose: []string{"o"}}}, Intent: toolset.Intent{Strict: true}},
	}
	for i, spec := range specs {
		b, err := Encode(spec)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(strings.NewReader(string(b)))
		if err != nil || !reflect.DeepEqual(got, spec) {
			t.Fatalf("spec %d: round trip = %+v, %v\n%s", i, got, err, b)
		}
	}
}

func TestHandoffFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp-serve.json")
	spec := toolset.Spec{Root: "/w", Builtins: true, Step: "s", Intent: toolset.DefaultIntent()}
	if err := (Handoff{}).WriteSpec(path, spec); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("config file: %v %v", st, err)
	}
	f, _ := os.Open(path)
	got, err := Decode(f)
	_ = f.Close()
	if err != nil || !reflect.DeepEqual(got, spec) {
		t.Fatalf("written config = %+v, %v", got, err)
	}
	ready := filepath.Join(dir, "ready.json")
	ctx := context.Background()
	if _, err := (Handoff{}).ReadReady(ctx, ready); err == nil {
		t.Fatal("a missing ready record was read")
	}
	if err := writeReady(ready, ReadyRecord{PID: 42, Tools: []string{"Read"}}); err != nil {
		t.Fatal(err)
	}
	if r, err := (Handoff{}).ReadReady(ctx, ready); err != nil || r.PID != 42 || !reflect.DeepEqual(r.Tools, []string{"Read"}) {
		t.Fatalf("ReadReady = %+v, %v", r, err)
	}
	for _, body := range []string{`{"tools":[]}`, `{"pid":0}`, `not json`} {
		if err := os.WriteFile(ready, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if r, err := (Handoff{}).ReadReady(ctx, ready); err == nil {
			t.Fatalf("ready record %s accepted: %+v", body, r)
		}
	}
}

// TestServeWithIsWhatTheParentWrote: the parent writes the binary it chose for the step into the
// config, and awf-serve reads that one key before the rest.
func TestServeWithIsWhatTheParentWrote(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec toolset.Spec
		want string
	}{
		{"built-ins only", toolset.Spec{Builtins: true}, toolset.SlimBinary},
		{"plugin tools", toolset.Spec{Builtins: true, PluginTools: []toolset.PluginTools{{Plugin: "n", Expose: []string{"g"}}}}, toolset.AWFBinary},
		{"span export", toolset.Spec{Builtins: true, OTelEnv: map[string]string{"OTEL_TRACES_EXPORTER": "console"}}, toolset.AWFBinary},
	} {
		b, err := Encode(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := ServeWith(b); got != tc.want {
			t.Errorf("%s: ServeWith = %q, want %q", tc.name, got, tc.want)
		}
	}
	for in, want := range map[string]string{``: "", `{}`: "", `not json`: "", `{"serve_with":"awf"}`: "awf", `{"root_dir":"/r","serve_with":"awf-serve"}`: "awf-serve"} {
		if got := ServeWith([]byte(in)); got != want {
			t.Errorf("ServeWith(%q) = %q, want %q", in, got, want)
		}
	}
}
