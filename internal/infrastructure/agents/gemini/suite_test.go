package gemini

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli/clitest"
)

// The testdata files are real output of gemini 0.61.0 against a scripted Gemini API fake with
// an MCP server attached: success.json is stdout of a run that called mcp_awf_Read (five
// routing side requests plus two main ones); the .stderr files end with the error report.
var success = ports.AgentResult{
	Output: "FINAL {\"name\": \"mcp_awf_Read\", \"response\": {\"output\": \"<untrusted_context>\\n     1\\tMARKER-42 secret file content\\n\\n" +
		"</untrusted_context>\"}, \"id\": \"mcp_awf_Read_1795368776378_0\"}",
	InputTokens: 133, OutputTokens: 42, SessionID: "6dcdb984-5fee-4967-b7fb-3b9ddc45df23"}

var suite = clitest.Suite{
	Spec: Spec, Name: "gemini", InstallHint: "npm install -g @google/gemini-cli@" + VerifiedVersion, EnvVar: "AWF_GEMINI_BIN",
	Proxy: clitest.Run{
		Report: "success.json", Tools: []string{"Read", "Bash"}, Environ: []string{"GEMINI_API_KEY=k"},
		UserFiles: map[string]string{
			".gemini/settings.json":    `{"security":{"auth":{"selectedType":"oauth-personal"}},"mcpServers":{"mine":{"command":"x"}}}`,
			".gemini/oauth_creds.json": `{"refresh_token":"r"}`,
		},
		// The step may say where its user's gemini home is; the CLI still gets the private one.
		Options: map[string]any{"model": "gemini-fake", "system_prompt": "be terse", "env": map[string]any{"GEMINI_CLI_HOME": "{home}"}},
		Want:    success,
		WantArgs: []string{"--output-format", "json", "--skip-trust", "--model=gemini-fake", "--allowed-mcp-server-names=awf",
			"--policy={priv}/policy.toml", "--prompt=read marker.txt"},
		WantEnv: map[string]string{"GEMINI_CLI_HOME": "{priv}/home", "GEMINI_SYSTEM_MD": "{priv}/system.md", "GEMINI_API_KEY": "k", "HOME": "{home}"},
		WantFiles: map[string]clitest.File{
			"gemini/home/.gemini/settings.json":    {Has: []string{`"oauth-personal"`, `"trust": true`}, Lacks: []string{`"mine"`}},
			"gemini/home/.gemini/oauth_creds.json": {Is: `{"refresh_token":"r"}`},
			"gemini/system.md":                     {Is: "be terse"},
			"gemini/policy.toml":                   {Has: []string{`mcpName = "awf"`}},
		},
	},
	Plain: clitest.Run{
		Report: "success.json", Want: success,
		WantArgs: []string{"--output-format", "json", "--skip-trust", "--prompt=read marker.txt"},
		// Without a proxy the user's own gemini home is used.
		EnvLacks: []string{"GEMINI_CLI_HOME", "GEMINI_SYSTEM_MD"},
	},
	Errors: []clitest.ErrorCase{
		{Name: "auth error on stderr", Stderr: "auth_error.stderr", Exit: "41", WantCode: fault.ExecutionAgentError, WantText: "Invalid auth method selected"},
		{Name: "a proxy tool named like a built-in", Tools: []string{"web_fetch"}, WantCode: fault.UserMCPProxyShadowedByBuiltin},
	},
	Parse: []clitest.ParseCase{
		{Name: "success", Stdout: "success.json", Want: success},
		{Name: "API error after a stack trace", Stderr: "api_error.stderr", Exit: 144, WantCode: fault.ExecutionAgentError,
			WantText: `model fail not found`, Want: ports.AgentResult{SessionID: "e35a2448-b2d2-4a1e-b1fa-7b15639a68cf"}},
		{Name: "auth error", Stderr: "auth_error.stderr", Exit: 41, WantCode: fault.ExecutionAgentError,
			WantText: "Invalid auth method selected. (code 41) (hint: authentication failed: set GEMINI_API_KEY",
			Want:     ports.AgentResult{SessionID: "0e193242-5bdf-46a6-b0db-b317d6333870"}},
		{Name: "exit 55 without a report", Inline: true, Exit: 55, Stderr: "Gemini CLI is not running in a trusted directory",
			WantCode: fault.ExecutionAgentCLIFailed, WantText: "exited with status 55: Gemini CLI is not running in a trusted directory"},
		{Name: "garbage", Inline: true, Stdout: "Loaded cached credentials.\n", WantCode: fault.ExecutionAgentBadOutput},
		{Name: "a report on stdout wins over stderr", Inline: true, Stdout: `{"session_id":"s","response":"ok"}`, Stderr: `{"error":{"message":"stale"}}`,
			Want: ports.AgentResult{Output: "ok", SessionID: "s"}},
		{Name: "stdout without response, error report on stderr", Inline: true, Exit: 1, Stdout: `{"session_id":"x"}`,
			Stderr: "trace\n{\"session_id\":\"e\",\"error\":{\"message\":\"quota\",\"code\":429}}", WantCode: fault.ExecutionAgentError,
			WantText: "quota (code 429)", Want: ports.AgentResult{SessionID: "e"}},
		{Name: "input tokens beat prompt tokens", Inline: true,
			Stdout: `{"response":"r","stats":{"models":{"a":{"tokens":{"input":5,"prompt":7,"candidates":1}},"b":{"tokens":{"prompt":2,"candidates":3}}}}}`,
			Want:   ports.AgentResult{Output: "r", InputTokens: 7, OutputTokens: 4}},
		{Name: "JSON without response", Inline: true, Stdout: `{"session_id":"x"}`, WantCode: fault.ExecutionAgentBadOutput, WantText: `no "response"`,
			Want: ports.AgentResult{SessionID: "x"}},
	},
	Options: []clitest.OptionCase{
		{Name: "three problems", Opts: map[string]any{"base_url": "localhost:8080", "auth_type": "api-key", "aproval_mode": "yolo"},
			Want: []clitest.OptionWant{{Key: "aproval_mode"}, {Key: "auth_type"}, {Key: "base_url"}}},
		{Name: "valid options", Opts: map[string]any{"system_prompt": "x", "model": "m", "base_url": "https://gw.example/v1"}},
	},
}

func TestSuite(t *testing.T) { clitest.RunSuite(t, suite) }
