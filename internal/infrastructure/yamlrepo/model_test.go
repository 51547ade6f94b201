package yamlrepo

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func loadValid(t *testing.T, name string) (*workflow.Workflow, string) {
	t.Helper()
	path := filepath.Join("testdata", "valid", name)
	w, ds, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 0 {
		t.Fatalf("valid fixture has diagnostics:\n%v", ds)
	}
	return w, path
}

// TestLoadDesignExample loads the example of docs/design.md#workflow-schema and checks the model and the positions
// later validators (plugins, providers) point at.
func TestLoadDesignExample(t *testing.T) {
	w, path := loadValid(t, "review.yaml")
	at := func(line, col int) fault.Position { return fault.Position{File: path, Line: line, Column: col} }

	if w.Name != "review" || w.Initial != "review" || w.File != path {
		t.Errorf("header: name %q initial %q file %q", w.Name, w.Initial, w.File)
	}
	if want := []string{"review", "report", "done", "failed"}; !reflect.DeepEqual(w.Order, want) {
		t.Errorf("Order = %v, want %v", w.Order, want)
	}
	wantInputs := []workflow.Input{{Name: "target", Type: workflow.InputString, Required: true, Pos: at(4, 5)}}
	if !reflect.DeepEqual(w.Inputs, wantInputs) {
		t.Errorf("Inputs = %+v, want %+v", w.Inputs, wantInputs)
	}

	r := w.States["review"]
	if r.Type != workflow.StateAgent || r.Agent().Provider != "claude" || r.Timeout != 5*time.Minute ||
		r.OnSuccess != "report" || r.OnFailure != "failed" || r.Agent().Prompt != "Summarise the Go files under {{.inputs.target}}" {
		t.Errorf("review state = %+v", r)
	}
	if !reflect.DeepEqual(r.Agent().Options, map[string]any{"model": "sonnet"}) {
		t.Errorf("Options = %#v", r.Agent().Options)
	}
	m := r.Agent().MCPProxy
	if m == nil || !m.Enable || !m.InterceptBuiltins {
		t.Fatalf("MCPProxy = %+v", m)
	}
	wantTools := []workflow.PluginTools{{Plugin: "echo", Expose: []string{"echo"}, Pos: at(19, 19), ExposePos: []fault.Position{at(20, 20)}}}
	if !reflect.DeepEqual(m.PluginTools, wantTools) {
		t.Errorf("PluginTools = %+v, want %+v", m.PluginTools, wantTools)
	}
	if !reflect.DeepEqual(m.Intent, workflow.DefaultIntent()) {
		t.Errorf("Intent = %+v, want the default", m.Intent)
	}

	positions := []struct {
		name string
		got  fault.Position
		want fault.Position
	}{
		{"state name", r.Pos, at(9, 3)},
		{"provider key", r.KeyAt("provider"), at(11, 5)},
		{"provider value", r.ValueAt("provider"), at(11, 15)},
		{"options.model key", r.KeyAt("options.model"), at(13, 16)},
		{"plugin value via state", r.ValueAt("mcp_proxy.plugin_tools[0].plugin"), at(19, 19)},
		{"expose item via state", r.ValueAt("mcp_proxy.plugin_tools[0].expose[0]"), at(20, 20)},
		{"allow item via block", m.ValueAt("intent.allow[2]"), at(23, 30)},
		{"mcp_proxy key", m.Pos, at(15, 5)},
		{"workflow-wide path", w.KeyAt("states.review.mcp_proxy.intent.split"), at(22, 9)},
		{"initial value", w.ValueAt("states.initial"), at(8, 12)},
		{"input default absent falls back to file", w.ValueAt("inputs[0].default"), at(1, 1)},
		{"terminal status", w.States["failed"].ValueAt("status"), at(33, 37)},
	}
	for _, p := range positions {
		if p.got != p.want {
			t.Errorf("%s: got %v, want %v", p.name, p.got, p.want)
		}
	}
}

// TestLoadDefaults checks defaults, the step alias, merge keys and typed free-form options.
func TestLoadDefaults(t *testing.T) {
	w, _ := loadValid(t, "defaults.yaml")
	if w.Version != "1.2" {
		t.Errorf("Version = %q", w.Version)
	}
	wantDefaults := map[string]any{"count": int64(3), "verbose": false, "port": "8080"}
	for _, in := range w.Inputs {
		if in.Default != wantDefaults[in.Name] {
			t.Errorf("input %s default = %#v, want %#v", in.Name, in.Default, wantDefaults[in.Name])
		}
	}
	if w.Inputs[2].Type != workflow.InputString {
		t.Errorf("an input without type is a string, got %q", w.Inputs[2].Type)
	}

	ask, again := w.States["ask"], w.States["again"]
	wantOpts := map[string]any{
		"model": "local", "temperature": 0.2, "max_turns": int64(8), "stream": true,
		"headers": map[string]any{"X-Key": "abc"}, "stop": []any{"\n\n"},
	}
	if !reflect.DeepEqual(ask.Agent().Options, wantOpts) {
		t.Errorf("Options = %#v, want %#v", ask.Agent().Options, wantOpts)
	}
	if ask.Agent().MCPProxy == nil || !ask.Agent().MCPProxy.InterceptBuiltins || !reflect.DeepEqual(ask.Agent().MCPProxy.Intent, workflow.DefaultIntent()) {
		t.Errorf("mcp_proxy defaults not applied: %+v", ask.Agent().MCPProxy)
	}
	// Merged: everything from ask, explicit keys win.
	if again.Type != workflow.StateAgent || again.Agent().Provider != "openai_compatible" || again.Agent().PromptFile != "prompts/again.md" ||
		again.OnSuccess != "build" || !reflect.DeepEqual(again.Agent().Options, wantOpts) {
		t.Errorf("merged state = %+v", again)
	}
	if again.ValueAt("provider").Line != 17 {
		t.Errorf("a merged key points where it is written (line 17), got %v", again.ValueAt("provider"))
	}

	build := w.States["build"]
	if build.Type != workflow.StateCommand || build.Timeout != 90*time.Minute || build.Command().Dir != "{{.env.HOME}}/src" {
		t.Errorf("build = %+v", build)
	}
	if done := w.States["done"]; done.Terminal().Status != workflow.StatusSuccess {
		t.Errorf("terminal status defaults to success, got %q", done.Terminal().Status)
	}
	if failed := w.States["failed"]; failed.Terminal().Status != workflow.StatusFailure || failed.Terminal().Message != "build failed" {
		t.Errorf("failed = %+v", failed)
	}
}

// TestIntentParsed checks a full intent block lands in the model as written.
func TestIntentParsed(t *testing.T) {
	src := `name: x
states:
  initial: a
  a:
    type: agent
    provider: codex
    prompt: p
    mcp_proxy:
      enable: true
      intercept_builtins: false
      plugin_tools: [{plugin: git, expose: [status, diff]}]
      intent: {split: true, allow: [read], strict_server_validation: false, require_declaration: true, ask: [read], approval_timeout: 2s}
    on_success: d
  d: {type: terminal}
`
	w, ds := Parse("x.yaml", []byte(src))
	if len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	m := w.States["a"].Agent().MCPProxy
	want := workflow.IntentSettings{Split: true, Allow: []tool.Variant{tool.VariantRead}, StrictServerValidation: false, RequireDeclaration: true,
		Ask: []tool.Variant{tool.VariantRead}, ApprovalTimeout: 2 * time.Second}
	if !reflect.DeepEqual(m.Intent, want) {
		t.Errorf("Intent = %+v, want %+v", m.Intent, want)
	}
	if m.InterceptBuiltins || len(m.PluginTools) != 1 || !reflect.DeepEqual(m.PluginTools[0].Expose, []string{"status", "diff"}) {
		t.Errorf("proxy = %+v", m)
	}
}
