package claude

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

func TestPlan(t *testing.T) {
	attach := func(intercept bool) *ports.ProxyAttachment {
		return &ports.ProxyAttachment{ServerName: "awf", Command: "/bin/awf", Args: []string{"mcp-serve", "--config", "/t/serve.json"},
			Tools: []string{"Read", "Glob"}, InterceptBuiltins: intercept, TempDir: "/t"}
	}
	const dir = "/t/claude"
	tests := []struct {
		name       string
		opts       map[string]any
		attach     *ports.ProxyAttachment
		prompt     string
		wantArgs   []string
		wantForced map[string]string
		wantFiles  bool
	}{
		{name: "no proxy: the CLI runs plainly", prompt: "hello",
			wantArgs: []string{"-p", "--output-format", "json", "--", "hello"}, wantForced: map[string]string{}},
		{name: "proxy, intercept: built-ins off, exactly the proxy's tools granted", attach: attach(true), prompt: "-starts with a dash",
			wantArgs: []string{"-p", "--output-format", "json", "--mcp-config", dir + "/mcp.json", "--strict-mcp-config", "--tools", "",
				"--permission-mode", "dontAsk", "--allowedTools", "mcp__awf__Read", "mcp__awf__Glob", "--", "-starts with a dash"},
			wantForced: map[string]string{"ENABLE_TOOL_SEARCH": "false"}, wantFiles: true},
		{name: "proxy, no intercept: server attached, own tools kept", attach: attach(false), prompt: "p",
			wantArgs: []string{"-p", "--output-format", "json", "--mcp-config", dir + "/mcp.json", "--strict-mcp-config",
				"--allowedTools", "mcp__awf__Read", "mcp__awf__Glob", "--", "p"},
			wantForced: map[string]string{}, wantFiles: true},
		{name: "every option", attach: attach(true), prompt: "p", opts: map[string]any{
			"model": "sonnet", "system_prompt": "be terse", "append_system_prompt": "and kind", "permission_mode": "acceptEdits",
			"allowed_tools": []any{"Bash(git diff:*)"}, "base_url": "http://127.0.0.1:9", "extra_args": []any{"--max-budget-usd", "1"},
		},
			wantArgs: []string{"-p", "--output-format", "json", "--model", "sonnet", "--system-prompt", "be terse", "--append-system-prompt", "and kind",
				"--mcp-config", dir + "/mcp.json", "--strict-mcp-config", "--tools", "", "--permission-mode", "acceptEdits",
				"--allowedTools", "Bash(git diff:*)", "mcp__awf__Read", "mcp__awf__Glob", "--max-budget-usd", "1", "--", "p"},
			wantForced: map[string]string{"ENABLE_TOOL_SEARCH": "false", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}, wantFiles: true},
		{name: "empty system prompt is passed, not dropped", opts: map[string]any{"system_prompt": ""}, prompt: "p",
			wantArgs: []string{"-p", "--output-format", "json", "--system-prompt", "", "--", "p"}, wantForced: map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Spec.Schema().Parse(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			p, err := plan(ports.AgentRequest{Step: "s", Prompt: tc.prompt, Attach: tc.attach}, v, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tc.wantArgs) {
				t.Errorf("args\n got %q\nwant %q", p.Args, tc.wantArgs)
			}
			if !reflect.DeepEqual(p.Forced, tc.wantForced) {
				t.Errorf("forced env = %v, want %v", p.Forced, tc.wantForced)
			}
			if p.Defaults["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] != "1" || p.Defaults["DISABLE_TELEMETRY"] != "1" {
				t.Errorf("zero-traffic defaults missing: %v", p.Defaults)
			}
			if (len(p.Files) == 1) != tc.wantFiles {
				t.Fatalf("files = %v", p.Files)
			}
			if tc.wantFiles {
				checkMCPConfig(t, p.Files[0], dir+"/mcp.json")
			}
		})
	}
}

func checkMCPConfig(t *testing.T, f cli.File, path string) {
	t.Helper()
	var cfg struct {
		MCPServers map[string]struct {
			Type    string   `json:"type"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if f.Path != path {
		t.Errorf("config at %s, want %s", f.Path, path)
	}
	if err := json.Unmarshal(f.Data, &cfg); err != nil {
		t.Fatal(err)
	}
	s, ok := cfg.MCPServers["awf"]
	if len(cfg.MCPServers) != 1 || !ok || s.Type != "stdio" || s.Command != "/bin/awf" ||
		!reflect.DeepEqual(s.Args, []string{"mcp-serve", "--config", "/t/serve.json"}) {
		t.Errorf("mcp config = %s", f.Data)
	}
}

func TestPlanToolSearch(t *testing.T) {
	a := &ports.ProxyAttachment{ServerName: "awf", Command: "/bin/awf", TempDir: "/t"}
	p, err := plan(ports.AgentRequest{Attach: a}, options.Values{}, "/t/claude", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Without intercept the proxy's tools would hide behind ToolSearch; the step may opt back in.
	if p.Defaults["ENABLE_TOOL_SEARCH"] != "false" || p.Forced["ENABLE_TOOL_SEARCH"] != "" {
		t.Errorf("defaults %v forced %v", p.Defaults, p.Forced)
	}
	if quiet["ENABLE_TOOL_SEARCH"] != "" {
		t.Error("the shared quiet defaults must not be modified")
	}
}

func TestMCPConfigProtectsDollarBraces(t *testing.T) {
	// Claude expands ${VAR} in --mcp-config commands and arguments; awf's must arrive as written.
	a := &ports.ProxyAttachment{ServerName: "awf", Command: "/opt/${X}/awf", Args: []string{"--config", "/t/$HOME/${HOME}/a.json"}, TempDir: "/t"}
	p, err := plan(ports.AgentRequest{Attach: a}, options.Values{}, "/t/claude", nil)
	if err != nil {
		t.Fatal(err)
	}
	data := string(p.Files[0].Data)
	if !strings.Contains(data, `"/opt/${AWF_LITERAL_DOLLAR}{X}/awf"`) || !strings.Contains(data, `"/t/$HOME/${AWF_LITERAL_DOLLAR}{HOME}/a.json"`) ||
		p.Forced["AWF_LITERAL_DOLLAR"] != "$" {
		t.Errorf("config %s, forced %v", data, p.Forced)
	}
	plainA := &ports.ProxyAttachment{ServerName: "awf", Command: "/bin/awf", Args: []string{"$HOME"}, TempDir: "/t"}
	if p, _ := plan(ports.AgentRequest{Attach: plainA}, options.Values{}, "/t/claude", nil); p.Forced["AWF_LITERAL_DOLLAR"] != "" {
		t.Error("a bare $ is not expanded by Claude and needs no escape")
	}
}
