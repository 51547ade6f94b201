package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

func attach(intercept bool, tools ...string) *ports.ProxyAttachment {
	return &ports.ProxyAttachment{ServerName: "awf", Command: "/bin/awf", Args: []string{"mcp-serve", "--config", "/t/serve.json"},
		Tools: tools, InterceptBuiltins: intercept, TempDir: "/t"}
}

func TestPlanCommandLine(t *testing.T) {
	const dir = "/t/gemini"
	tests := []struct {
		name       string
		opts       map[string]any
		attach     *ports.ProxyAttachment
		wantArgs   []string
		wantForced map[string]string
		wantFiles  []string
	}{
		{name: "no proxy: the CLI runs plainly",
			wantArgs: []string{"--output-format", "json", "--skip-trust", "--prompt=-p like a flag"}, wantForced: map[string]string{}},
		{name: "proxy, intercept: private home, server allowed, deny-all policy", attach: attach(true, "Read", "Bash"),
			wantArgs:   []string{"--output-format", "json", "--skip-trust", "--allowed-mcp-server-names=awf", "--policy=" + dir + "/policy.toml", "--prompt=-p like a flag"},
			wantForced: map[string]string{"GEMINI_CLI_HOME": dir + "/home"}, wantFiles: []string{dir + "/home/.gemini/settings.json", dir + "/policy.toml"}},
		{name: "proxy, no intercept: no policy", attach: attach(false, "Read"),
			wantArgs:   []string{"--output-format", "json", "--skip-trust", "--allowed-mcp-server-names=awf", "--prompt=-p like a flag"},
			wantForced: map[string]string{"GEMINI_CLI_HOME": dir + "/home"}, wantFiles: []string{dir + "/home/.gemini/settings.json"}},
		{name: "options without a proxy", opts: map[string]any{"model": "gemini-2.5-pro", "approval_mode": "yolo", "system_prompt": "terse",
			"base_url": "http://127.0.0.1:9", "extra_args": []any{"--debug"}},
			wantArgs:   []string{"--output-format", "json", "--skip-trust", "--model=gemini-2.5-pro", "--approval-mode=yolo", "--debug", "--prompt=-p like a flag"},
			wantForced: map[string]string{"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9", "GEMINI_SYSTEM_MD": dir + "/system.md", "GEMINI_CLI_HOME": dir + "/home"},
			wantFiles:  []string{dir + "/system.md", dir + "/home/.gemini/settings.json"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Spec.Schema().Parse(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			p, err := plan(ports.AgentRequest{Step: "s", Prompt: "-p like a flag", Attach: tc.attach}, v, dir, []string{"HOME=/nonexistent"})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tc.wantArgs) {
				t.Errorf("args\n got %q\nwant %q", p.Args, tc.wantArgs)
			}
			if !reflect.DeepEqual(p.Forced, tc.wantForced) {
				t.Errorf("forced env = %v, want %v", p.Forced, tc.wantForced)
			}
			var paths []string
			for _, f := range p.Files {
				paths = append(paths, f.Path)
			}
			if !reflect.DeepEqual(paths, tc.wantFiles) {
				t.Errorf("files = %q, want %q", paths, tc.wantFiles)
			}
		})
	}
}

// A later turn resumes the session by its id, every other argument as on the first turn; which
// calls run with awf's private home (where gemini then keeps its sessions) follows the options.
func TestPlanResumesSessions(t *testing.T) {
	const dir = "/t/gemini"
	v, err := Spec.Schema().Parse(map[string]any{"model": "gemini-2.5-flash", "base_url": "http://127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	req := ports.AgentRequest{Step: "s", Prompt: "next", Attach: attach(true, "Read")}
	first, err := plan(req, v, dir, []string{"HOME=/nonexistent"})
	if err != nil {
		t.Fatal(err)
	}
	req.Session = &ports.AgentSession{ID: "29afdd00-b2c5-4b8a-9e49-891cdd5dd45a", Turns: 1}
	next, err := plan(req, v, dir, []string{"HOME=/nonexistent"})
	if err != nil {
		t.Fatal(err)
	}
	n := len(first.Args)
	want := append(append(append([]string(nil), first.Args[:n-1]...), "--resume=29afdd00-b2c5-4b8a-9e49-891cdd5dd45a"), first.Args[n-1])
	if !reflect.DeepEqual(next.Args, want) || !reflect.DeepEqual(next.Forced, first.Forced) {
		t.Fatalf("resume\n got %q %v\nwant %q %v", next.Args, next.Forced, want, first.Forced)
	}
	for _, tc := range []struct {
		opts   map[string]any
		attach *ports.ProxyAttachment
		want   bool
	}{
		{nil, nil, false},
		{map[string]any{"system_prompt": "x"}, nil, false}, // a private file, but the user's home
		{nil, attach(false), true},
		{map[string]any{"base_url": "http://x"}, nil, true},
		{map[string]any{"auth_type": "gemini-api-key"}, nil, true},
	} {
		if got := usesPrivateHome(ports.AgentRequest{Attach: tc.attach}, options.Values(tc.opts)); got != tc.want {
			t.Errorf("private home with %v, proxy %v = %v", tc.opts, tc.attach != nil, got)
		}
	}
}

func TestPolicyFile(t *testing.T) {
	got := string(policy(`we"ird`))
	for _, want := range []string{
		"[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"\npriority = 900\n",
		"[[rule]]\ntoolName = \"*\"\nmcpName = \"we\\\"ird\"\ndecision = \"allow\"\npriority = 950\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("policy lacks %q:\n%s", want, got)
		}
	}
}

// settingsOf plans a proxied step for a user whose gemini directory holds files, and returns
// the private settings and the other private files.
func settingsOf(t *testing.T, userFiles map[string]string, opts map[string]any, env ...string) (map[string]any, map[string]string) {
	t.Helper()
	home := t.TempDir()
	for name, content := range userFiles {
		p := filepath.Join(home, ".gemini", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	v, err := Spec.Schema().Parse(opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan(ports.AgentRequest{Step: "s", Prompt: "p", Attach: attach(true, "Read")}, v, "/t/gemini", append([]string{"HOME=" + home}, env...))
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	others := map[string]string{}
	for _, f := range p.Files {
		if f.Path == "/t/gemini/home/.gemini/settings.json" {
			if err := json.Unmarshal(f.Data, &settings); err != nil {
				t.Fatal(err)
			}
			continue
		}
		others[f.Path] = string(f.Data)
	}
	return settings, others
}

func TestPrivateSettings(t *testing.T) {
	t.Run("fresh user", func(t *testing.T) {
		s, _ := settingsOf(t, nil, nil)
		want := map[string]any{
			"mcpServers": map[string]any{"awf": map[string]any{"command": "/bin/awf", "args": []any{"mcp-serve", "--config", "/t/serve.json"}, "trust": true}},
			"privacy":    map[string]any{"usageStatisticsEnabled": false},
			"telemetry":  map[string]any{"enabled": false},
			"general":    map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		}
		if !reflect.DeepEqual(s, want) {
			t.Errorf("settings = %v", s)
		}
	})
	t.Run("the user's settings carry over, minus their servers", func(t *testing.T) {
		s, files := settingsOf(t, map[string]string{
			"settings.json": `{
  // comments are allowed in gemini settings
  "security": {"auth": {"selectedType": "oauth-personal"}},
  "model": {"name": "gemini-2.5-flash"},
  "mcpServers": {"github": {"command": "gh-mcp"}},
  "mcp": {"excluded": ["awf"]},
  "telemetry": {"enabled": true, "target": "gcp"}
}`,
			"oauth_creds.json":     `{"refresh_token":"r"}`,
			"google_accounts.json": `{"active":"me@example.com"}`,
		}, nil)
		if s["model"].(map[string]any)["name"] != "gemini-2.5-flash" ||
			s["security"].(map[string]any)["auth"].(map[string]any)["selectedType"] != "oauth-personal" {
			t.Errorf("user settings lost: %v", s)
		}
		if _, ok := s["mcp"]; ok {
			t.Error("the user's mcp allow/exclude lists must not reach the private settings")
		}
		if servers := s["mcpServers"].(map[string]any); len(servers) != 1 || servers["awf"] == nil {
			t.Errorf("servers = %v", servers)
		}
		if tel := s["telemetry"].(map[string]any); tel["enabled"] != false || tel["target"] != "gcp" {
			t.Errorf("telemetry = %v", tel)
		}
		if files["/t/gemini/home/.gemini/oauth_creds.json"] != `{"refresh_token":"r"}` || len(files) != 3 {
			t.Errorf("credentials not copied: %v", files)
		}
	})
	auth := func(s map[string]any) any {
		sec, _ := s["security"].(map[string]any)
		a, _ := sec["auth"].(map[string]any)
		return a["selectedType"]
	}
	t.Run("base URL with an API key selects gemini-api-key", func(t *testing.T) {
		s, _ := settingsOf(t, nil, map[string]any{"base_url": "http://127.0.0.1:9"}, "GEMINI_API_KEY=k")
		if auth(s) != "gemini-api-key" {
			t.Errorf("auth = %v", auth(s))
		}
		s, _ = settingsOf(t, nil, map[string]any{"env": map[string]any{"GOOGLE_GEMINI_BASE_URL": "http://x:1", "GEMINI_API_KEY": "k"}})
		if auth(s) != "gemini-api-key" {
			t.Errorf("auth from the step's env = %v", auth(s))
		}
	})
	t.Run("no base URL: the CLI infers auth itself", func(t *testing.T) {
		if s, _ := settingsOf(t, nil, nil, "GEMINI_API_KEY=k"); auth(s) != nil {
			t.Errorf("auth = %v", auth(s))
		}
	})
	t.Run("the user's own choice stays", func(t *testing.T) {
		s, _ := settingsOf(t, map[string]string{"settings.json": `{"security":{"auth":{"selectedType":"oauth-personal"}}}`},
			map[string]any{"base_url": "http://x:1"}, "GEMINI_API_KEY=k")
		if auth(s) != "oauth-personal" {
			t.Errorf("auth = %v", auth(s))
		}
		for _, partial := range []string{`{"security":{}}`, `{"security":{"auth":{}}}`, `{"security":{"auth":{"selectedType":null}}}`} {
			s, _ := settingsOf(t, map[string]string{"settings.json": partial}, map[string]any{"base_url": "http://x:1"}, "GEMINI_API_KEY=k")
			if auth(s) != "gemini-api-key" {
				t.Errorf("%s: no choice made, auth = %v", partial, auth(s))
			}
		}
	})
	t.Run("auth_type wins", func(t *testing.T) {
		s, _ := settingsOf(t, map[string]string{"settings.json": `{"security":{"auth":{"selectedType":"oauth-personal"}}}`},
			map[string]any{"auth_type": "vertex-ai", "base_url": "http://x:1"}, "GEMINI_API_KEY=k")
		if auth(s) != "vertex-ai" {
			t.Errorf("auth = %v", auth(s))
		}
	})
}

func TestDollarsReachTheServerAsWritten(t *testing.T) {
	// Gemini expands $VAR and ${VAR} in every settings string.
	a := attach(true, "Read")
	a.Command, a.Args = "/opt/$X/awf", []string{"--config", "/t/${HOME}/a.json"}
	p, err := plan(ports.AgentRequest{Step: "s", Attach: a}, options.Values{}, "/t/gemini", []string{"HOME=/nonexistent"})
	if err != nil {
		t.Fatal(err)
	}
	data := string(p.Files[0].Data)
	if !strings.Contains(data, `"/opt/${AWF_LITERAL_DOLLAR}X/awf"`) || !strings.Contains(data, `"/t/${AWF_LITERAL_DOLLAR}{HOME}/a.json"`) ||
		p.Forced["AWF_LITERAL_DOLLAR"] != "$" {
		t.Errorf("settings %s, forced %v", data, p.Forced)
	}
}

func TestPlanErrors(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(`{"a":1,}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		attach   *ports.ProxyAttachment
		env      []string
		wantCode string
		wantText string
	}{
		{name: "plugin tool named like a built-in", attach: attach(true, "Read", "web_fetch", "read_file"), env: []string{"HOME=/nonexistent"},
			wantCode: fault.UserMCPProxyShadowedByBuiltin, wantText: "would never reach the model: web_fetch, read_file"},
		{name: "unreadable user settings", attach: attach(true, "Read"), env: []string{"HOME=" + home},
			wantCode: fault.ExecutionAgentSetup, wantText: "cannot read your gemini settings"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := plan(ports.AgentRequest{Step: "s", Attach: tc.attach}, options.Values{}, "/t/gemini", tc.env)
			if fault.CodeOf(err) != tc.wantCode || !strings.Contains(err.Error(), tc.wantText) {
				t.Fatalf("want %s containing %q, got %v", tc.wantCode, tc.wantText, err)
			}
		})
	}
}

func TestShadowedTools(t *testing.T) {
	awf := []string{"Read", "Write", "Edit", "Bash", "Glob", "Grep", "retrieve_tools", "call_tool_read", "call_tool_write", "call_tool_destructive"}
	if got := ShadowedTools(awf); got != nil {
		t.Errorf("awf's own tools must all reach the model, got %v shadowed", got)
	}
	if got := ShadowedTools([]string{"glob", "myplugin_op", "search_file_content"}); !reflect.DeepEqual(got, []string{"glob", "search_file_content"}) {
		t.Errorf("got %v", got)
	}
}
