package gemini

import (
	"context"
	"net/url"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// approvalModes are the values of --approval-mode in the verified version.
var approvalModes = []string{"default", "auto_edit", "yolo", "plan"}

// authTypes are the values of security.auth.selectedType in the verified version.
var authTypes = []string{"gemini-api-key", "oauth-personal", "vertex-ai", "compute-default-credentials", "cloud-shell", "gateway"}

// schema: the common options (system_prompt replaces Gemini's system prompt) plus
//
//	base_url       GOOGLE_GEMINI_BASE_URL, for a gateway or a local model server
//	auth_type      security.auth.selectedType in the private settings
//	approval_mode  --approval-mode
var schema = cli.Schema{
	Provider: Name,
	Options: append(cli.Common(true),
		cli.Option{Name: "base_url", Kind: cli.KindString, Check: absoluteURL, Example: "a URL, e.g. base_url: http://127.0.0.1:8080"},
		cli.Option{Name: "auth_type", Kind: cli.KindString, Choices: authTypes, Example: "auth_type: gemini-api-key"},
		cli.Option{Name: "approval_mode", Kind: cli.KindString, Choices: approvalModes, Example: "approval_mode: auto_edit"},
	),
}

func absoluteURL(v any) string {
	s, _ := v.(string)
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "must be an absolute URL such as http://127.0.0.1:8080"
	}
	return ""
}

// ValidateOptions reports every unknown or ill-typed option of a gemini step.
func ValidateOptions(opts map[string]any) []cli.OptionError { return schema.Validate(opts) }

// IsolationWarning is "": with the private settings, --allowed-mcp-server-names and the
// deny-all-but-the-proxy policy, the model is offered the proxy's tools and nothing else
// (verified). Admin policies of the machine (/etc/gemini-cli) still apply, as they must.
func IsolationWarning(_ bool) string { return "" }

// CheckWorkflow validates the options of every gemini step; it has validate.Check's signature.
func CheckWorkflow(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
	return cli.CheckSteps(wf, Name, ValidateOptions, IsolationWarning)
}
