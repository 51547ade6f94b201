package claude

import (
	"context"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// permissionModes are the values of --permission-mode in the verified version.
var permissionModes = []string{"acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan"}

// schema: the common options plus
//
//	append_system_prompt  --append-system-prompt (system_prompt replaces Claude's own prompt)
//	allowed_tools         more --allowedTools entries, e.g. "Bash(git diff:*)"
//	permission_mode       --permission-mode; with intercept_builtins the default is dontAsk
//	base_url              ANTHROPIC_BASE_URL, for a gateway or a local model server
var schema = cli.Schema{
	Provider: Name,
	Options: append(cli.Common(true),
		cli.Option{Name: "append_system_prompt", Kind: cli.KindString, Example: "a string"},
		cli.Option{Name: "allowed_tools", Kind: cli.KindStrings, Example: `a list, e.g. allowed_tools: ["Bash(git diff:*)"]`},
		cli.Option{Name: "permission_mode", Kind: cli.KindString, Choices: permissionModes, Example: "permission_mode: dontAsk"},
		cli.Option{Name: "base_url", Kind: cli.KindString, Example: "a URL, e.g. base_url: http://127.0.0.1:8080"},
	),
}

// ValidateOptions reports every unknown or ill-typed option of a claude step.
func ValidateOptions(opts map[string]any) []cli.OptionError { return schema.Validate(opts) }

// IsolationWarning is "": with --tools "", --strict-mcp-config and ENABLE_TOOL_SEARCH=false the
// model sees the proxy's tools and nothing else (verified), and without intercept there is
// nothing to isolate.
func IsolationWarning(_ bool) string { return "" }

// CheckWorkflow validates the options of every claude step; it has validate.Check's signature.
func CheckWorkflow(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
	return cli.CheckSteps(wf, Name, ValidateOptions, IsolationWarning)
}
