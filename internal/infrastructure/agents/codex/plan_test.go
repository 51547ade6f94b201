package codex

import (
	"os"
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
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
			v, err := Spec.Schema().Parse(tc.opts)
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

// A step that keeps its session leaves session files on (no --ephemeral) in the home awf keeps
// for the run, and a later turn resumes with `exec resume` and the very same overrides, the
// sandbox as -c sandbox_mode since resume has no --sandbox.
func TestPlanKeepsAndResumesSessions(t *testing.T) {
	const dir = "/t/codex"
	a := &ports.ProxyAttachment{ServerName: "awf", Command: "/bin/awf", Args: []string{"mcp-serve", "--turn", "2"}, InterceptBuiltins: true, TempDir: "/t"}
	v, err := Spec.Schema().Parse(map[string]any{"model": "m", "sandbox": "read-only", "base_url": "http://127.0.0.1:9/v1", "extra_args": []any{"--color", "never"}})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := plan(ports.AgentRequest{Step: "s", Prompt: "p", Attach: a}, v, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	keep, err := plan(ports.AgentRequest{Step: "s", Prompt: "p", Attach: a, KeepSession: true, SessionDir: "/t/sessions"}, v, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var withoutEphemeral []string
	for _, s := range fresh.Args {
		if s != "--ephemeral" {
			withoutEphemeral = append(withoutEphemeral, s)
		}
	}
	if len(withoutEphemeral) != len(fresh.Args)-1 || !reflect.DeepEqual(keep.Args, withoutEphemeral) || keep.Forced["CODEX_HOME"] != dir+"/home" {
		t.Fatalf("a kept session:\n got %q\nwant %q", keep.Args, withoutEphemeral)
	}
	sess := &ports.AgentSession{ID: "019a-thread", Turns: 1}
	resume, err := plan(ports.AgentRequest{Step: "s", Prompt: "-next", Attach: a, Session: sess, SessionDir: "/t/sessions"}, v, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"exec", "resume"}
	for i := 1; i < len(keep.Args); i++ {
		switch {
		case keep.Args[i] == "--sandbox":
			want = append(want, "-c", `sandbox_mode="read-only"`)
			i++
		case keep.Args[i] == "--":
			want = append(want, "--", "019a-thread", "-next")
			i = len(keep.Args)
		default:
			want = append(want, keep.Args[i])
		}
	}
	if !reflect.DeepEqual(resume.Args, want) || resume.Forced["CODEX_HOME"] != dir+"/home" {
		t.Fatalf("resume:\n got %q\nwant %q", resume.Args, want)
	}
	// Without a proxy codex resumes from the user's own ~/.codex.
	plain, err := plan(ports.AgentRequest{Step: "s", Prompt: "p", Session: sess}, options.Values{}, "", nil)
	if err != nil || !reflect.DeepEqual(plain.Args, join([]string{"exec", "resume", "--json", "--skip-git-repo-check"}, quiet, []string{"--", "019a-thread", "p"})) || len(plain.Forced) != 0 {
		t.Fatalf("resume without a proxy: %q %v %v", plain.Args, plain.Forced, err)
	}
}

func TestPlanErrors(t *testing.T) {
	// Validation refuses env_key without base_url first; plan still does not guess.
	if _, err := plan(ports.AgentRequest{Step: "s"}, options.Values{"env_key": "K"}, "", nil); fault.CodeOf(err) != fault.UserAgentInvalidOption {
		t.Errorf("env_key without base_url: %v", err)
	}
	bad := &ports.ProxyAttachment{ServerName: "a.b", Command: "/bin/awf", TempDir: "/t"}
	if _, err := plan(ports.AgentRequest{Step: "s", Attach: bad}, options.Values{}, "/t/codex", nil); fault.CodeOf(err) != fault.ExecutionAgentSetup {
		t.Errorf("a server name codex cannot address: %v", err)
	}
}

func TestParseSkipsStrayLines(t *testing.T) {
	b, err := os.ReadFile("testdata/success.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out, err := cli.Outcome(Name, cli.Result{Stdout: append([]byte("WARNING: x\n{not json\n"), b...)}, parse)
	if err != nil || out != success {
		t.Fatalf("a stray line lost the answer: %+v, %v", out, err)
	}
}
