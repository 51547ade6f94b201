package opencode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

func attach(intercept bool) *ports.ProxyAttachment {
	return &ports.ProxyAttachment{ServerName: "awf", Command: "/bin/awf", Args: []string{"mcp-serve", "--config", "/t/serve.json"},
		Tools: []string{"Read"}, InterceptBuiltins: intercept, TempDir: "/t"}
}

func planFor(t *testing.T, opts map[string]any, a *ports.ProxyAttachment, base ...string) (cli.Plan, map[string]any) {
	t.Helper()
	v, err := Spec.Schema().Parse(opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan(ports.AgentRequest{Step: "s", Prompt: "-x", Attach: a}, v, "/t/opencode", base)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	for _, f := range p.Files {
		if f.Path == "/t/opencode/opencode.json" {
			if err := json.Unmarshal(f.Data, &cfg); err != nil {
				t.Fatal(err)
			}
		}
	}
	return p, cfg
}

func TestPlanCommandLineAndEnv(t *testing.T) {
	tests := []struct {
		name       string
		opts       map[string]any
		attach     *ports.ProxyAttachment
		wantArgs   []string
		wantForced []string // names only; values are checked below
	}{
		{name: "no proxy: the CLI runs plainly", wantArgs: []string{"run", "--format", "json", "--print-logs", "--log-level", "WARN", "--", "-x"}},
		{name: "proxy, intercept", attach: attach(true), wantArgs: []string{"run", "--format", "json", "--print-logs", "--log-level", "WARN", "--", "-x"},
			wantForced: []string{"OPENCODE_CONFIG", "OPENCODE_PERMISSION"}},
		{name: "proxy, no intercept", attach: attach(false), wantArgs: []string{"run", "--format", "json", "--print-logs", "--log-level", "WARN", "--", "-x"},
			wantForced: []string{"OPENCODE_CONFIG"}},
		{name: "options", opts: map[string]any{"model": "fake/fake-model", "agent": "plan", "extra_args": []any{"--variant", "high"}},
			wantArgs: []string{"run", "--format", "json", "--print-logs", "--log-level", "WARN", "--model", "fake/fake-model", "--agent", "plan", "--variant", "high", "--", "-x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := planFor(t, tc.opts, tc.attach)
			if !reflect.DeepEqual(p.Args, tc.wantArgs) {
				t.Errorf("args\n got %q\nwant %q", p.Args, tc.wantArgs)
			}
			var names []string
			for k := range p.Forced {
				names = append(names, k)
			}
			if len(names) != len(tc.wantForced) {
				t.Errorf("forced env = %v, want %v", p.Forced, tc.wantForced)
			}
			for _, k := range tc.wantForced {
				if p.Forced[k] == "" {
					t.Errorf("forced env lacks %s: %v", k, p.Forced)
				}
			}
			if p.Defaults["OPENCODE_DISABLE_AUTOUPDATE"] != "1" || p.Defaults["OPENCODE_DISABLE_SHARE"] != "1" {
				t.Errorf("quiet defaults = %v", p.Defaults)
			}
		})
	}
}

func TestPrivateConfig(t *testing.T) {
	t.Run("intercept: the proxy, and everything else denied, in the file and the variable", func(t *testing.T) {
		p, cfg := planFor(t, nil, attach(true))
		if p.Forced["OPENCODE_CONFIG"] != "/t/opencode/opencode.json" {
			t.Errorf("OPENCODE_CONFIG = %q", p.Forced["OPENCODE_CONFIG"])
		}
		wantMCP := map[string]any{"awf": map[string]any{"type": "local", "command": []any{"/bin/awf", "mcp-serve", "--config", "/t/serve.json"}, "enabled": true}}
		if !reflect.DeepEqual(cfg["mcp"], wantMCP) {
			t.Errorf("mcp = %v", cfg["mcp"])
		}
		perm := p.Forced["OPENCODE_PERMISSION"]
		if !strings.HasPrefix(perm, `{"*":"deny","bash":"deny","read":"deny",`) || !strings.HasSuffix(perm, `,"awf_*":"allow"}`) {
			t.Errorf("OPENCODE_PERMISSION = %s", perm)
		}
		var fromEnv map[string]any
		if err := json.Unmarshal([]byte(perm), &fromEnv); err != nil || !reflect.DeepEqual(fromEnv, cfg["permission"]) {
			t.Errorf("the variable and the file must carry the same set: %v vs %v (%v)", fromEnv, cfg["permission"], err)
		}
		for _, b := range builtinTools {
			if fromEnv[b] != "deny" {
				t.Errorf("built-in %s not denied by name", b)
			}
		}
	})
	t.Run("no intercept: the proxy granted, the user's settings kept", func(t *testing.T) {
		own := filepath.Join(t.TempDir(), "my.jsonc")
		if err := os.WriteFile(own, []byte(`{
  // the user's own OPENCODE_CONFIG file
  "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "options": {"baseURL": "http://127.0.0.1:9/v1"}}},
  "mcp": {"github": {"type": "remote", "url": "https://x"}},
  "permission": {"*": "ask", "bash": "allow"},
  "instructions": "CONVENTIONS.md"
}`), 0o600); err != nil {
			t.Fatal(err)
		}
		p, cfg := planFor(t, map[string]any{"system_prompt": "be terse"}, attach(false), "OPENCODE_CONFIG="+own)
		if cfg["provider"] == nil || cfg["mcp"].(map[string]any)["github"] == nil || cfg["mcp"].(map[string]any)["awf"] == nil {
			t.Errorf("the user's config was not carried over: %v", cfg)
		}
		if want := map[string]any{"*": "ask", "bash": "allow", "awf_*": "allow"}; !reflect.DeepEqual(cfg["permission"], want) {
			t.Errorf("permission = %v", cfg["permission"])
		}
		if want := []any{"CONVENTIONS.md", "/t/opencode/system-prompt.md"}; !reflect.DeepEqual(cfg["instructions"], want) {
			t.Errorf("instructions = %v", cfg["instructions"])
		}
		if _, ok := p.Forced["OPENCODE_PERMISSION"]; ok {
			t.Error("without intercept the user's own OPENCODE_PERMISSION must stand")
		}
	})
	t.Run("a system prompt alone needs a private config", func(t *testing.T) {
		p, cfg := planFor(t, map[string]any{"system_prompt": "be terse"}, nil)
		if p.Forced["OPENCODE_CONFIG"] == "" || cfg["mcp"] != nil || cfg["permission"] != nil ||
			!reflect.DeepEqual(cfg["instructions"], []any{"/t/opencode/system-prompt.md"}) {
			t.Errorf("forced %v cfg %v", p.Forced, cfg)
		}
		if !needsDir(options.Values{"system_prompt": "x"}) || needsDir(options.Values{}) {
			t.Error("needsDir")
		}
	})
	t.Run("an unreadable OPENCODE_CONFIG file is reported", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.json")
		if err := os.WriteFile(bad, []byte(`{"a":1,}`), 0o600); err != nil {
			t.Fatal(err)
		}
		v, _ := Spec.Schema().Parse(nil)
		_, err := plan(ports.AgentRequest{Step: "s", Attach: attach(true)}, v, "/t/opencode", []string{"OPENCODE_CONFIG=" + bad})
		if fault.CodeOf(err) != fault.ExecutionAgentSetup || !strings.Contains(err.Error(), bad) {
			t.Fatalf("got %v", err)
		}
	})
}

func TestPlaceholdersReachTheServerAsWritten(t *testing.T) {
	// opencode replaces {env:VAR} and {file:path} in its config.
	a := attach(true)
	a.Args = []string{"--config", "/t/{env:HOME}/{file:x}/$HOME.json"}
	p, cfg := planFor(t, nil, a)
	cmd := cfg["mcp"].(map[string]any)["awf"].(map[string]any)["command"].([]any)
	if cmd[2] != "/t/{env:AWF_LITERAL_BRACE}env:HOME}/{env:AWF_LITERAL_BRACE}file:x}/$HOME.json" || p.Forced["AWF_LITERAL_BRACE"] != "{" {
		t.Errorf("command %q, forced %v", cmd, p.Forced)
	}
	if p, _ := planFor(t, nil, attach(true)); p.Forced["AWF_LITERAL_BRACE"] != "" {
		t.Error("no placeholder, no escape variable")
	}
}

func TestParseKeepsOnlyTheFinalMessage(t *testing.T) {
	stream := `{"type":"text","sessionID":"s","part":{"messageID":"m1","text":"Let me read it."}}
{"type":"tool_use","sessionID":"s","part":{"messageID":"m1"}}
{"type":"text","sessionID":"s","part":{"messageID":"m2","text":"The file says 42."}}
{"type":"text","sessionID":"s","part":{"messageID":"m2","text":"Done."}}
{"type":"step_finish","sessionID":"s","part":{"messageID":"m2","cost":0.5,"tokens":{"input":1,"output":2,"cache":{"read":3,"write":4}}}}
`
	out, err := parse(cli.Result{Stdout: []byte(stream)})
	if err != nil || out.Output != "The file says 42.\nDone." || out.InputTokens != 8 || out.OutputTokens != 2 || out.CostUSD != 0.5 {
		t.Fatalf("%+v %v", out, err)
	}
}
