package builtins

import (
	"slices"
	"strings"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

// scrubbedNames are exact variable names ScrubEnv removes: the model API keys and session tokens
// of the agent CLIs awf drives. The MCP server inherits the CLI's whole environment, so without
// this a model could print its own credentials with Bash (docs/design.md#pitfalls).
var scrubbedNames = map[string]bool{
	// Anthropic / Claude Code
	"ANTHROPIC_API_KEY":       true,
	"ANTHROPIC_AUTH_TOKEN":    true,
	"CLAUDE_CODE_OAUTH_TOKEN": true,
	"CLAUDE_API_KEY":          true,
	// OpenAI / codex / OpenAI-compatible endpoints
	"OPENAI_API_KEY":       true,
	"OPENAI_ACCESS_TOKEN":  true,
	"AZURE_OPENAI_API_KEY": true,
	// Google / Gemini CLI
	"GEMINI_API_KEY":                 true,
	"GOOGLE_API_KEY":                 true,
	"GOOGLE_GENAI_API_KEY":           true,
	"GOOGLE_APPLICATION_CREDENTIALS": true,
	// OpenCode and the providers it fronts
	"OPENCODE_API_KEY":         true,
	"OPENROUTER_API_KEY":       true,
	"GROQ_API_KEY":             true,
	"MISTRAL_API_KEY":          true,
	"DEEPSEEK_API_KEY":         true,
	"XAI_API_KEY":              true,
	"TOGETHER_API_KEY":         true,
	"FIREWORKS_API_KEY":        true,
	"AWS_BEARER_TOKEN_BEDROCK": true,
}

// scrubbedPrefixes remove whole families: codex keeps its tokens under CODEX_*, and awf's own
// provider settings may carry keys under AWF_PROVIDER_*.
var scrubbedPrefixes = []string{"CODEX_", "AWF_PROVIDER_"}

// scrubbedSuffixes catch the remaining agent credentials by shape. Every other variable whose
// name marks it secret (redact.IsSecretName: *_KEY, *_TOKEN, *_SECRET, *PASSWORD*, *_PAT,
// *CREDENTIALS*, case-insensitive) is dropped too.
var scrubbedSuffixes = []struct{ prefix, suffix string }{
	{"ANTHROPIC_", "_KEY"}, {"ANTHROPIC_", "_TOKEN"},
	{"CLAUDE_", "_KEY"}, {"CLAUDE_", "_TOKEN"},
	{"OPENAI_", "_KEY"}, {"OPENAI_", "_TOKEN"},
	{"GEMINI_", "_KEY"}, {"GEMINI_", "_TOKEN"},
	{"OPENCODE_", "_KEY"}, {"OPENCODE_", "_TOKEN"},
}

// ScrubEnv returns env ("NAME=value" entries) without credentials, for the environment of
// Bash: a model that can run commands must not be able to print a token the user holds (the
// issue's probe printed GITHUB_TOKEN, GH_TOKEN, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
// NPM_TOKEN and HF_TOKEN). Removed: the agent CLIs' own credentials (the exact names
// ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN, CLAUDE_API_KEY,
// OPENAI_API_KEY, OPENAI_ACCESS_TOKEN, AZURE_OPENAI_API_KEY, GEMINI_API_KEY, GOOGLE_API_KEY,
// GOOGLE_GENAI_API_KEY, GOOGLE_APPLICATION_CREDENTIALS, OPENCODE_API_KEY, OPENROUTER_API_KEY,
// GROQ_API_KEY, MISTRAL_API_KEY, DEEPSEEK_API_KEY, XAI_API_KEY, TOGETHER_API_KEY,
// FIREWORKS_API_KEY, AWS_BEARER_TOKEN_BEDROCK; every CODEX_* and AWF_PROVIDER_* variable), and
// every variable whose name marks it secret (redact.IsSecretName). A step hands one on
// deliberately with `mcp_proxy.env_passthrough`, which is ScrubEnvKeeping's keep list.
func ScrubEnv(env []string) []string { return ScrubEnvKeeping(env, nil) }

// ScrubEnvKeeping is ScrubEnv that keeps the variables named in keep whatever their names. Both
// also drop the variables that point at an agent, daemon or display (sandbox.SideDoorVar:
// SSH_AUTH_SOCK, DBUS_SESSION_BUS_ADDRESS, DOCKER_HOST, ...), whose sockets the sandbox hides.
func ScrubEnvKeeping(env, keep []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(keep, name) || !isCredential(name) && !sandbox.SideDoorVar(name) {
			out = append(out, kv)
		}
	}
	return out
}

func isCredential(name string) bool {
	if scrubbedNames[name] || redact.IsSecretName(name) {
		return true
	}
	for _, p := range scrubbedPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	for _, ps := range scrubbedSuffixes {
		if strings.HasPrefix(name, ps.prefix) && strings.HasSuffix(name, ps.suffix) {
			return true
		}
	}
	return false
}
