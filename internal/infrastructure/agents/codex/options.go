package codex

import (
	"context"
	"net/url"
	"regexp"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// sandboxModes are the values of --sandbox in the verified version.
var sandboxModes = []string{"read-only", "workspace-write", "danger-full-access"}

// bareKey is what codex accepts as one segment of a -c dotted path; envVar is a variable name.
var (
	bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	envVar  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// schema: the common options (system_prompt becomes developer_instructions) plus
//
//	model_provider  -c model_provider=…: a built-in provider (openai, ollama, lmstudio), or the
//	                id of the provider base_url defines (default "awf")
//	base_url        defines that provider: an OpenAI Responses endpoint such as
//	                http://127.0.0.1:8080/v1 (codex speaks only the Responses API)
//	env_key         the variable holding that provider's API key (default OPENAI_API_KEY)
//	sandbox         --sandbox for codex's own shell (the MCP proxy runs outside it)
var schema = cli.Schema{
	Provider: Name,
	Options: append(cli.Common(true),
		cli.Option{Name: "model_provider", Kind: cli.KindString, Check: providerID, Example: "model_provider: ollama"},
		cli.Option{Name: "base_url", Kind: cli.KindString, Check: absoluteURL, Example: "a URL, e.g. base_url: http://127.0.0.1:8080/v1"},
		cli.Option{Name: "env_key", Kind: cli.KindString, Check: envName, Example: "a variable name, e.g. env_key: OPENAI_API_KEY"},
		cli.Option{Name: "sandbox", Kind: cli.KindString, Choices: sandboxModes, Example: "sandbox: workspace-write"},
	),
}

func providerID(v any) string {
	if s, _ := v.(string); !bareKey.MatchString(s) {
		return "must be a provider id of letters, digits, _ and -"
	}
	return ""
}

func absoluteURL(v any) string {
	s, _ := v.(string)
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "must be an absolute URL such as http://127.0.0.1:8080/v1"
	}
	return ""
}

func envName(v any) string {
	if s, _ := v.(string); !envVar.MatchString(s) {
		return "must name an environment variable (letters, digits, _), not hold the key itself"
	}
	return ""
}

// ValidateOptions reports every unknown or ill-typed option of a codex step, and env_key
// without base_url (it describes the provider base_url defines).
func ValidateOptions(opts map[string]any) []cli.OptionError {
	errs := schema.Validate(opts)
	if _, ok := opts["env_key"]; ok {
		if _, ok := opts["base_url"]; !ok {
			errs = append(errs, cli.OptionError{Key: "env_key", Err: fault.New(fault.UserAgentInvalidOption,
				"option env_key of provider codex needs base_url: it names the key of the provider base_url defines").
				WithHint("add base_url, or drop env_key and export CODEX_API_KEY")})
		}
	}
	return errs
}

// remaining are the built-ins codex keeps whatever is switched off (verified).
const remaining = "list_mcp_resources, list_mcp_resource_templates, read_mcp_resource, request_user_input"

// IsolationWarning names what stays beside the proxy with intercept_builtins: codex cannot
// switch off its MCP-resource tools and request_user_input.
func IsolationWarning(intercept bool) string {
	if !intercept {
		return ""
	}
	return "codex cannot switch off all of its own tools: besides the proxy's, the model is still offered " + remaining +
		" (harmless: they read MCP resources or ask the user, and exec mode has no user)"
}

// CheckWorkflow validates the options of every codex step and warns about the built-ins that
// remain; it has validate.Check's signature.
func CheckWorkflow(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
	return cli.CheckSteps(wf, Name, ValidateOptions, IsolationWarning)
}
