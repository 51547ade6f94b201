package codex

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli/clitest"
)

// The testdata files are real streams of codex-cli 0.169.0: success.jsonl against a Responses
// fake with the proxy attached, turn_failed.jsonl after the fake answered 400, unreachable.jsonl
// cut by a timeout while codex retried an unreachable endpoint.
var success = ports.AgentResult{Output: "HELLO from fake", InputTokens: 13, OutputTokens: 5, SessionID: "01a20452-be70-7113-b46a-ee381f8c209f"}

// long is a text longer than the scanner's first buffer.
var long = strings.Repeat("x", 70<<10)

var suite = clitest.Suite{
	Spec: Spec, Name: "codex", InstallHint: "npm install -g @openai/codex@" + VerifiedVersion, EnvVar: "AWF_CODEX_BIN",
	Proxy: clitest.Run{
		Report: "success.jsonl", Tools: []string{"Read"}, Environ: []string{"CODEX_API_KEY=k"},
		// The user's own CODEX_HOME, with a server of theirs: the step must not see it.
		UserFiles: map[string]string{".codex/config.toml": "[mcp_servers.mine]\ncommand = \"x\"\n"},
		Options:   map[string]any{"env": map[string]any{"CODEX_HOME": "{home}/.codex"}},
		Want:      success,
		WantArgs: join([]string{"exec", "--json", "--skip-git-repo-check", "--ephemeral"}, quiet,
			[]string{"--disable", "plugins", "--disable", "apps",
				"-c", `mcp_servers.awf.command="/opt/awf/bin/awf"`,
				"-c", `mcp_servers.awf.args=["mcp-serve","--config","{tmp}/serve.json"]`,
				"-c", `mcp_servers.awf.default_tools_approval_mode="approve"`,
				"--disable", "shell_tool", "--disable", "multi_agent", "--disable", "goals", "--disable", "view_image", "-c", `web_search="disabled"`,
				"--", "read marker.txt"}),
		WantEnv: map[string]string{"CODEX_HOME": "{priv}/home", "CODEX_API_KEY": "k"},
		// codex needs no private file beyond its empty home.
	},
	Plain: clitest.Run{
		Report: "success.jsonl", Want: success,
		WantArgs: join([]string{"exec", "--json", "--skip-git-repo-check"}, quiet, []string{"--", "read marker.txt"}),
		EnvLacks: []string{"CODEX_HOME"},
	},
	Parse: []clitest.ParseCase{
		{Name: "success", Stdout: "success.jsonl", Want: success},
		{Name: "turn failed", Stdout: "turn_failed.jsonl", Exit: 1, WantCode: fault.ExecutionAgentError,
			WantText: "codex reported an error: model fail not found", Want: ports.AgentResult{SessionID: "01a20452-d2ae-73a1-b1bc-d09d7503f44d"}},
		{Name: "killed mid-retry", Stdout: "unreachable.jsonl", Exit: 124, WantCode: fault.ExecutionAgentCLIFailed,
			Want: ports.AgentResult{SessionID: "01a20452-dc7f-7a42-8695-fab7f6a6bf2c"}},
		{Name: "stream ends early with exit 0", Stdout: "unreachable.jsonl", WantCode: fault.ExecutionAgentBadOutput,
			WantText: "last error: Reconnecting... waiting for network", Want: ports.AgentResult{SessionID: "01a20452-dc7f-7a42-8695-fab7f6a6bf2c"}},
		{Name: "one long line without a newline", Inline: true, Stdout: `{"type":"turn.failed","error":{"message":"` + long + `"}}`,
			WantCode: fault.ExecutionAgentError, WantText: "codex reported an error: xxxxxxxx"},
		{Name: "not JSONL", Inline: true, Stdout: "Usage: codex exec …", WantCode: fault.ExecutionAgentBadOutput, WantText: "no JSON events"},
	},
	Options: []clitest.OptionCase{
		{Name: "bad values", Opts: map[string]any{"env_key": "sk-123", "sandbox": "none", "base_url": "not a url"},
			Want: []clitest.OptionWant{{Key: "base_url"}, {Key: "env_key"}, {Key: "sandbox"}}},
		{Name: "env_key alone", Opts: map[string]any{"env_key": "K"},
			Want: []clitest.OptionWant{{Key: "env_key", Has: []string{"needs base_url"}}}},
		{Name: "every option", Opts: map[string]any{"model": "m", "system_prompt": "s", "model_provider": "awf",
			"base_url": "http://127.0.0.1:9/v1", "env_key": "K", "sandbox": "read-only"}},
	},
	Warning: "list_mcp_resources, list_mcp_resource_templates, read_mcp_resource, request_user_input",
}

func TestSuite(t *testing.T) { clitest.RunSuite(t, suite) }
