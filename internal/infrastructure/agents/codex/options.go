package codex

import (
	"regexp"

	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// sandboxModes are the values of --sandbox in the verified version.
var sandboxModes = []string{"read-only", "workspace-write", "danger-full-access"}

// bareKey is what codex accepts as one segment of a -c dotted path.
var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// stepOptions: the common options (system_prompt becomes developer_instructions) plus
//
//	model_provider  -c model_provider=…: a built-in provider (openai, ollama, lmstudio), or the
//	                id of the provider base_url defines (default "awf")
//	base_url        defines that provider: an OpenAI Responses endpoint such as
//	                http://127.0.0.1:8080/v1 (codex speaks only the Responses API)
//	env_key         the variable holding that provider's API key (default OPENAI_API_KEY)
//	sandbox         --sandbox for codex's own shell (the MCP proxy runs outside it)
var stepOptions = append(cli.Common(),
	options.Option{Name: "model_provider", Kind: options.KindString, Check: providerID, Example: "model_provider: ollama"},
	options.Option{Name: "base_url", Kind: options.KindString, Check: options.AbsoluteURL("http://127.0.0.1:8080/v1"), Example: "a URL, e.g. base_url: http://127.0.0.1:8080/v1"},
	options.Option{Name: "env_key", Kind: options.KindString, Check: envName, Example: "a variable name, e.g. env_key: OPENAI_API_KEY"},
	options.Option{Name: "sandbox", Kind: options.KindString, Choices: sandboxModes, Example: "sandbox: workspace-write"},
)

// needs: env_key describes the provider base_url defines, so alone it means nothing.
var needs = []options.Need{{Option: "env_key", Needs: "base_url",
	Why: "it names the key of the provider base_url defines", Hint: "add base_url, or drop env_key and export CODEX_API_KEY"}}

func providerID(v any) string {
	if s, _ := v.(string); !bareKey.MatchString(s) {
		return "must be a provider id of letters, digits, _ and -"
	}
	return ""
}

func envName(v any) string {
	if s, _ := v.(string); !options.ValidEnvName(s) {
		return "must name an environment variable (letters, digits, _), not hold the key itself"
	}
	return ""
}

// unisolated are the built-ins codex keeps whatever is switched off (verified): its
// MCP-resource tools and request_user_input.
const unisolated = "codex cannot switch off all of its own tools: besides the proxy's, the model is still offered " +
	"list_mcp_resources, list_mcp_resource_templates, read_mcp_resource, request_user_input" +
	" (harmless: they read MCP resources or ask the user, and exec mode has no user)"
