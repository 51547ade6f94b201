package codex

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli/clitest"
)

var quiet = []string{"-c", "analytics.enabled=false", "-c", "check_for_update_on_startup=false"}

func join(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestPlan(t *testing.T) {
	const dir = "/t/codex"
	attach := func(intercept bool) *ports.ProxyAttachment {
		return &ports.ProxyAttachment{ServerName: "awf", Command: `/opt/my "awf"/awf`, Args: []string{"mcp-serve", "--config", `/t/a b\c.json`},
			Tools: []string{"Read"}, InterceptBuiltins: intercept, TempDir: "/t"}
	}
	server := []string{"--disable", "plugins", "--disable", "apps",
		"-c", `mcp_servers.awf.command="/opt/my \"awf\"/awf"`,
		"-c", `mcp_servers.awf.args=["mcp-serve","--config","/t/a b\\c.json"]`,
		"-c", `mcp_servers.awf.default_tools_approval_mode="approve"`}
	isolate := []string{"--disable", "shell_tool", "--disable", "multi_agent", "--disable", "goals", "--disable", "view_image", "-c", `web_search="disabled"`}
	tests := []struct {
		name       string
		opts       map[string]any
		attach     *ports.ProxyAttachment
		wantArgs   []string
		wantForced map[string]string
	}{
		{name: "no proxy: the CLI runs plainly with the user's CODEX_HOME",
			wantArgs: join([]string{"exec", "--json", "--skip-git-repo-check"}, quiet, []string{"--", "-fix it"}), wantForced: map[string]string{}},
		{name: "proxy, intercept", attach: attach(true),
			wantArgs:   join([]string{"exec", "--json", "--skip-git-repo-check", "--ephemeral"}, quiet, server, isolate, []string{"--", "-fix it"}),
			wantForced: map[string]string{"CODEX_HOME": dir + "/home"}},
		{name: "proxy, no intercept: built-ins kept", attach: attach(false),
			wantArgs:   join([]string{"exec", "--json", "--skip-git-repo-check", "--ephemeral"}, quiet, server, []string{"--", "-fix it"}),
			wantForced: map[string]string{"CODEX_HOME": dir + "/home"}},
		{name: "a local Responses endpoint", opts: map[string]any{"model": "fake-model", "base_url": "http://127.0.0.1:9/v1", "env_key": "FAKE_KEY",
			"system_prompt": "be \"terse\"\nplease", "sandbox": "read-only", "extra_args": []any{"--color", "never"}},
			wantArgs: join([]string{"exec", "--json", "--skip-git-repo-check", "--model", "fake-model", "--sandbox", "read-only"}, quiet,
				[]string{"-c", `developer_instructions="be \"terse\"\nplease"`, "-c", `model_provider="awf"`,
					"-c", `model_providers.awf={name="awf",base_url="http://127.0.0.1:9/v1",wire_api="responses",env_key="FAKE_KEY"}`,
					"--color", "never", "--", "-fix it"}), wantForced: map[string]string{}},
		{name: "a built-in provider", opts: map[string]any{"model_provider": "ollama"},
			wantArgs:   join([]string{"exec", "--json", "--skip-git-repo-check"}, quiet, []string{"-c", `model_provider="ollama"`, "--", "-fix it"}),
			wantForced: map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := schema.Parse(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			p, err := plan(ports.AgentRequest{Step: "s", Prompt: "-fix it", Attach: tc.attach}, v, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Args, tc.wantArgs) {
				t.Errorf("args\n got %q\nwant %q", p.Args, tc.wantArgs)
			}
			if !reflect.DeepEqual(p.Forced, tc.wantForced) {
				t.Errorf("forced env = %v, want %v", p.Forced, tc.wantForced)
			}
			if (tc.attach != nil) != reflect.DeepEqual(p.Dirs, []string{dir + "/home"}) || len(p.Files) != 0 {
				t.Errorf("dirs %v files %v", p.Dirs, p.Files)
			}
		})
	}
}

func TestPlanErrors(t *testing.T) {
	v, _ := schema.Parse(map[string]any{"env_key": "K"})
	if _, err := plan(ports.AgentRequest{Step: "s"}, v, "", nil); fault.CodeOf(err) != fault.UserAgentInvalidOption {
		t.Errorf("env_key without base_url: %v", err)
	}
	bad := &ports.ProxyAttachment{ServerName: "a.b", Command: "/bin/awf", TempDir: "/t"}
	if _, err := plan(ports.AgentRequest{Step: "s", Attach: bad}, cli.Values{}, "/t/codex", nil); fault.CodeOf(err) != fault.ExecutionAgentSetup {
		t.Errorf("a server name codex cannot address: %v", err)
	}
}

func TestValidateAndWarn(t *testing.T) {
	errs := ValidateOptions(map[string]any{"env_key": "sk-123", "sandbox": "none", "base_url": "not a url"})
	var keys []string
	for _, e := range errs {
		keys = append(keys, e.Key)
	}
	if !reflect.DeepEqual(keys, []string{"base_url", "env_key", "sandbox"}) {
		t.Errorf("keys = %v (%v)", keys, errs)
	}
	if errs := ValidateOptions(map[string]any{"env_key": "K"}); len(errs) != 1 || !strings.Contains(errs[0].Error(), "needs base_url") {
		t.Errorf("env_key alone: %v", errs)
	}
	if IsolationWarning(false) != "" || !strings.Contains(IsolationWarning(true), "list_mcp_resources, list_mcp_resource_templates, read_mcp_resource, request_user_input") {
		t.Errorf("warning = %q", IsolationWarning(true))
	}
}

// The testdata files are real streams of codex-cli 0.169.0: success.jsonl against a Responses
// fake with the proxy attached, turn_failed.jsonl after the fake answered 400, unreachable.jsonl
// cut by a timeout while codex retried an unreachable endpoint.
func TestParseRecordedStreams(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name     string
		res      cli.Result
		wantCode string
		wantText string
		want     ports.AgentResult
	}{
		{name: "success", res: cli.Result{Stdout: read("success.jsonl")},
			want: ports.AgentResult{Output: "HELLO from fake", InputTokens: 13, OutputTokens: 5, SessionID: "01a20452-be70-7113-b46a-ee381f8c209f"}},
		{name: "turn failed", res: cli.Result{ExitCode: 1, Stdout: read("turn_failed.jsonl")}, wantCode: fault.ExecutionAgentError,
			wantText: "codex reported an error: model fail not found", want: ports.AgentResult{SessionID: "01a20452-d2ae-73a1-b1bc-d09d7503f44d"}},
		{name: "killed mid-retry", res: cli.Result{ExitCode: 124, Stdout: read("unreachable.jsonl")}, wantCode: fault.ExecutionAgentCLIFailed,
			want: ports.AgentResult{SessionID: "01a20452-dc7f-7a42-8695-fab7f6a6bf2c"}},
		{name: "stream ends early with exit 0", res: cli.Result{Stdout: read("unreachable.jsonl")}, wantCode: fault.ExecutionAgentBadOutput,
			wantText: "last error: Reconnecting... waiting for network", want: ports.AgentResult{SessionID: "01a20452-dc7f-7a42-8695-fab7f6a6bf2c"}},
		{name: "not JSONL", res: cli.Result{Stdout: []byte("Usage: codex exec …")}, wantCode: fault.ExecutionAgentBadOutput, wantText: "no JSON events"},
		{name: "a stray line does not lose the answer", res: cli.Result{Stdout: append([]byte("WARNING: x\n{not json\n"), read("success.jsonl")...)},
			want: ports.AgentResult{Output: "HELLO from fake", InputTokens: 13, OutputTokens: 5, SessionID: "01a20452-be70-7113-b46a-ee381f8c209f"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := cli.Outcome(Name, tc.res, parse)
			if fault.CodeOf(err) != tc.wantCode || (err != nil && !strings.Contains(err.Error(), tc.wantText)) {
				t.Fatalf("want %q containing %q, got %v", tc.wantCode, tc.wantText, err)
			}
			if out != tc.want {
				t.Errorf("result = %+v, want %+v", out, tc.want)
			}
		})
	}
}

func TestRunWithTheProxy(t *testing.T) {
	h := clitest.New(t)
	codexHome := filepath.Join(h.Home, ".codex")
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte("[mcp_servers.mine]\ncommand = \"x\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	check := h.Watch(Name)
	opts := h.Options("testdata/success.jsonl", map[string]any{"env": map[string]any{"CODEX_HOME": codexHome}})
	out, err := New(h.Config("CODEX_API_KEY=k")).Run(context.Background(), h.Request("hi", opts, h.Attach(true, "Read")))
	if err != nil || out.Output != "HELLO from fake" {
		t.Fatalf("%+v %v", out, err)
	}
	rec := h.Read()
	if rec.Env["CODEX_HOME"] != filepath.Join(h.TempDir, "codex", "home") || rec.Env["CODEX_API_KEY"] != "k" {
		t.Errorf("env: CODEX_HOME=%q CODEX_API_KEY=%q", rec.Env["CODEX_HOME"], rec.Env["CODEX_API_KEY"])
	}
	if rec.Args[0] != "exec" || rec.Args[len(rec.Args)-2] != "--" || rec.Args[len(rec.Args)-1] != "hi" || rec.Cwd != h.Dir {
		t.Errorf("argv %q in %s", rec.Args, rec.Cwd)
	}
	if len(rec.Files) != 0 {
		t.Errorf("codex needs no private file beyond its empty home, got %v", rec.Files)
	}
	check()
}

func TestRunCancelKillsTheGroup(t *testing.T) {
	h := clitest.New(t)
	h.CheckCancel(New(h.Config()), h.Attach(true, "Read"))
}
