package claude

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli/clitest"
)

// The testdata files are real reports of claude 2.1.330 run against a scripted Anthropic
// Messages fake with awf mcp-serve attached (see the package doc).
var (
	success = ports.AgentResult{Output: "FINAL [{\"type\": \"text\", \"text\": \"     1\\tMARKER-42 secret file content\\n\"}]",
		InputTokens: 22, OutputTokens: 14, CostUSD: 0.00036799999999999995, SessionID: "7dde549a-2aaa-4ff1-99c0-348735c87381"}
	deniedOutput = "FINAL \"Permission to use mcp__awf__Read has been denied because Claude Code is running in don't ask mode. " +
		"IMPORTANT: You *may* attempt to accomplish this action using other tools that might naturally be use"
)

var suite = clitest.Suite{
	Spec: Spec, Name: "claude", InstallHint: "npm install -g @anthropic-ai/claude-code@" + VerifiedVersion, EnvVar: "AWF_CLAUDE_BIN",
	Proxy: clitest.Run{
		Report: "success.json", Tools: []string{"Read", "Bash"}, Environ: []string{"ANTHROPIC_API_KEY=sk-test"},
		Options: map[string]any{"model": "opus", "env": map[string]any{"DISABLE_TELEMETRY": "0", "ENABLE_TOOL_SEARCH": "true"}},
		Want:    success,
		WantArgs: []string{"-p", "--output-format", "json", "--model", "opus", "--mcp-config", "{priv}/mcp.json", "--strict-mcp-config", "--tools", "",
			"--permission-mode", "dontAsk", "--allowedTools", "mcp__awf__Read", "mcp__awf__Bash", "--", "read marker.txt"},
		WantEnv: map[string]string{
			"ENABLE_TOOL_SEARCH":                       "false", // isolation beats the step's env
			"DISABLE_TELEMETRY":                        "0",     // a quiet default the step may turn back
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
			"ANTHROPIC_API_KEY":                        "sk-test", // the user's credentials pass through
			"HOME":                                     "{home}",
		},
		WantFiles: map[string]clitest.File{"claude/mcp.json": {Has: []string{`"command": "/opt/awf/bin/awf"`}}},
	},
	Plain: clitest.Run{
		Report: "success.json", Want: success,
		WantArgs: []string{"-p", "--output-format", "json", "--", "read marker.txt"},
		WantEnv:  map[string]string{"DISABLE_TELEMETRY": "1"},
		EnvLacks: []string{"ENABLE_TOOL_SEARCH", "AWF_LITERAL_DOLLAR"},
	},
	Errors: []clitest.ErrorCase{
		{Name: "is_error report, exit 1", Report: "api_error.json", Exit: "1", WantCode: fault.ExecutionAgentError, WantText: "API Error: 400"},
		{Name: "permission denials, exit 0", Report: "denied.json", WantCode: fault.ExecutionAgentPermissionDenied, WantText: "mcp__awf__Read"},
	},
	Parse: []clitest.ParseCase{
		{Name: "success", Stdout: "success.json", Want: success},
		{Name: "denied", Stdout: "denied.json", WantCode: fault.ExecutionAgentPermissionDenied,
			WantText: "claude refused 1 tool call(s) the model made: mcp__awf__Read",
			Want: ports.AgentResult{Output: deniedOutput, InputTokens: 22, OutputTokens: 14, CostUSD: 0.00036799999999999995,
				SessionID: "e162db99-0cad-478b-b916-ddadf250341c"}},
		{Name: "api error", Stdout: "api_error.json", Exit: 1, WantCode: fault.ExecutionAgentError,
			WantText: "API Error: 400 model not found: fail-model (success, api_error)",
			Want:     ports.AgentResult{Output: "API Error: 400 model not found: fail-model", SessionID: "a93f0aa3-512e-4556-969f-e77e55d2d9e8"}},
	},
	Options: []clitest.OptionCase{
		{Name: "every kind of problem", Opts: map[string]any{"permision_mode": "dontAsk", "permission_mode": "yolo", "allowed_tools": "Bash"},
			Want: []clitest.OptionWant{
				{Key: "allowed_tools", Has: []string{"[USER.AGENT.INVALID_OPTION] option allowed_tools of provider claude must be a list of strings"}},
				{Key: "permision_mode", Has: []string{"[USER.AGENT.UNKNOWN_OPTION]", "did you mean 'permission_mode'?"}},
				{Key: "permission_mode", Has: []string{"[USER.AGENT.INVALID_OPTION]", "must be one of acceptEdits, auto, bypassPermissions, manual, dontAsk, plan"}},
			}},
		{Name: "every option", Opts: map[string]any{"model": "m", "binary": "b", "extra_args": []any{"-v"}, "env": map[string]any{"A": "1"},
			"system_prompt": "", "append_system_prompt": "x", "allowed_tools": []any{"Bash"}, "permission_mode": "plan", "base_url": "http://h:1"}},
	},
}

func TestSuite(t *testing.T) { clitest.RunSuite(t, suite) }
