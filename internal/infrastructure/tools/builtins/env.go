package builtins

import "strings"

// scrubbedNames are exact variable names ScrubEnv removes: the model API keys and session tokens
// of the agent CLIs awf drives. The MCP server inherits the CLI's whole environment, so without
// this a model could print its own credentials with Bash (DESIGN §10).
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

// scrubbedSuffixes catch the remaining agent credentials by shape, restricted to the vendors
// above so that unrelated project variables (DATABASE_PASSWORD …) reach Bash untouched.
var scrubbedSuffixes = []struct{ prefix, suffix string }{
	{"ANTHROPIC_", "_KEY"}, {"ANTHROPIC_", "_TOKEN"},
	{"CLAUDE_", "_KEY"}, {"CLAUDE_", "_TOKEN"},
	{"OPENAI_", "_KEY"}, {"OPENAI_", "_TOKEN"},
	{"GEMINI_", "_KEY"}, {"GEMINI_", "_TOKEN"},
	{"OPENCODE_", "_KEY"}, {"OPENCODE_", "_TOKEN"},
}

// ScrubEnv returns env ("NAME=value" entries) without the agent CLIs' own credentials, for the
// environment of Bash. Removed: the exact names ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN,
// CLAUDE_CODE_OAUTH_TOKEN, CLAUDE_API_KEY, OPENAI_API_KEY, OPENAI_ACCESS_TOKEN,
// AZURE_OPENAI_API_KEY, GEMINI_API_KEY, GOOGLE_API_KEY, GOOGLE_GENAI_API_KEY,
// GOOGLE_APPLICATION_CREDENTIALS, OPENCODE_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY,
// MISTRAL_API_KEY, DEEPSEEK_API_KEY, XAI_API_KEY, TOGETHER_API_KEY, FIREWORKS_API_KEY,
// AWS_BEARER_TOKEN_BEDROCK; every CODEX_* and AWF_PROVIDER_* variable; and any
// ANTHROPIC_/CLAUDE_/OPENAI_/GEMINI_/OPENCODE_ variable ending in _KEY or _TOKEN. Names are
// compared case-sensitively, as the environment is. A step that needs one of these in Bash
// passes it explicitly through Options.Env.
func ScrubEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !isCredential(name) {
			out = append(out, kv)
		}
	}
	return out
}

func isCredential(name string) bool {
	if scrubbedNames[name] {
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
