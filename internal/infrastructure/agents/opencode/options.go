package opencode

import (
	"context"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// schema: the common options (model is provider/model; system_prompt is appended to
// opencode's own through "instructions") plus
//
//	agent  --agent: which opencode agent runs the prompt (build, plan, or one of the user's)
var schema = cli.Schema{
	Provider: Name,
	Options: append(commonOptions(),
		cli.Option{Name: "agent", Kind: cli.KindString, Example: "agent: build"},
	),
}

// commonOptions are cli.Common with opencode's model format checked.
func commonOptions() []cli.Option {
	opts := cli.Common(true)
	for i := range opts {
		if opts[i].Name == "model" {
			opts[i].Check = providerSlashModel
			opts[i].Example = "provider/model, e.g. model: anthropic/claude-sonnet-4-5"
		}
	}
	return opts
}

func providerSlashModel(v any) string {
	s, _ := v.(string)
	if p, m, ok := strings.Cut(s, "/"); !ok || p == "" || m == "" {
		return "must be written provider/model (opencode's format), got " + `"` + s + `"`
	}
	return ""
}

// ValidateOptions reports every unknown or ill-typed option of an opencode step.
func ValidateOptions(opts map[string]any) []cli.OptionError { return schema.Validate(opts) }

// IsolationWarning names what stays beside the proxy with intercept_builtins.
func IsolationWarning(intercept bool) string {
	if !intercept {
		return ""
	}
	return "opencode merges the user's global and project opencode.json into the step's config: MCP servers and plugins " +
		"configured there still start, and a permission entry there that names their tools (e.g. \"github_*\": \"allow\") " +
		"keeps them beside the proxy; every built-in tool is denied by name and everything else by \"*\""
}

// CheckWorkflow validates the options of every opencode step and warns about what cannot be
// isolated; it has validate.Check's signature.
func CheckWorkflow(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
	return cli.CheckSteps(wf, Name, ValidateOptions, IsolationWarning)
}
