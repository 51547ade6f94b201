package opencode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli/clitest"
)

// The testdata files are real streams of opencode 1.18.33 against a Chat Completions fake with
// awf mcp-serve attached: success.jsonl called awf_Read then answered; api_error.jsonl is the
// fake's 400; unknown_model.jsonl names a provider that does not exist.
var success = ports.AgentResult{Output: "FINAL \"     1\\tMARKER-42 secret file content\\n\"", InputTokens: 34, OutputTokens: 8,
	SessionID: "ses_dfbab57baffeW7Ie12tNgdta09"}

// long is an answer longer than the scanner's first buffer, on a last line without a newline.
var long = strings.Repeat("x", 70<<10)

var suite = clitest.Suite{
	Spec: Spec, Name: "opencode", InstallHint: "npm install -g opencode-ai@" + VerifiedVersion, EnvVar: "AWF_OPENCODE_BIN",
	Proxy: clitest.Run{
		Report: "success.jsonl", Tools: []string{"Read"}, Want: success,
		WantArgs:  []string{"run", "--format", "json", "--print-logs", "--log-level", "WARN", "--", "read marker.txt"},
		WantEnv:   map[string]string{"OPENCODE_CONFIG": "{priv}/opencode.json", "OPENCODE_DISABLE_MODELS_FETCH": "1"},
		EnvPrefix: map[string]string{"OPENCODE_PERMISSION": `{"*":"deny"`},
		WantFiles: map[string]clitest.File{"opencode/opencode.json": {Has: []string{`"awf_*": "allow"`}}},
	},
	Plain: clitest.Run{
		Report: "success.jsonl", Want: success,
		WantArgs: []string{"run", "--format", "json", "--print-logs", "--log-level", "WARN", "--", "read marker.txt"},
		WantEnv:  map[string]string{"OPENCODE_DISABLE_MODELS_FETCH": "1"},
		EnvLacks: []string{"OPENCODE_CONFIG", "OPENCODE_PERMISSION"},
	},
	Parse: []clitest.ParseCase{
		{Name: "success after a tool call", Stdout: "success.jsonl", Want: success},
		{Name: "API error", Stdout: "api_error.jsonl", Exit: 1, WantCode: fault.ExecutionAgentError,
			WantText: "APIError: model fail not found", Want: ports.AgentResult{SessionID: "ses_dfba7d5e1ffemniF1ykRAhLF4S"}},
		{Name: "unknown provider", Stdout: "unknown_model.jsonl", Exit: 1, WantCode: fault.ExecutionAgentError,
			WantText: "UnknownError: Unexpected server error", Want: ports.AgentResult{SessionID: "ses_dfba7c26fffeN4T2Qdb61UtEh0"}},
		{Name: "a long last line", Inline: true, Stdout: fmt.Sprintf(`{"type":"text","sessionID":"s","part":{"messageID":"m","text":"%s"}}`, long), Want: ports.AgentResult{Output: long, SessionID: "s"}},
		{Name: "nothing", Inline: true, WantCode: fault.ExecutionAgentBadOutput},
		{Name: "crash", Inline: true, Exit: 134, Stderr: "panic: boom", WantCode: fault.ExecutionAgentCLIFailed, WantText: "panic: boom"},
	},
	Options: []clitest.OptionCase{
		{Name: "typo and model format", Opts: map[string]any{"model": "gpt-5", "agnet": "build"},
			Want: []clitest.OptionWant{{Key: "agnet", Has: []string{"did you mean 'agent'?"}}, {Key: "model", Has: []string{"provider/model"}}}},
		{Name: "valid options", Opts: map[string]any{"model": "fake/fake-model", "agent": "plan", "system_prompt": "s"}},
	},
	Warning: "MCP servers and plugins",
}

func TestSuite(t *testing.T) { clitest.RunSuite(t, suite) }
