package opencode

import (
	"strings"

	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// stepOptions: the common options (model is provider/model; system_prompt is appended to
// opencode's own through "instructions") plus
//
//	agent  --agent: which opencode agent runs the prompt (build, plan, or one of the user's)
var stepOptions = append(commonOptions(),
	options.Option{Name: "agent", Kind: options.KindString, Example: "agent: build"},
)

// commonOptions are cli.Common with opencode's model format checked.
func commonOptions() []options.Option {
	opts := cli.Common()
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

// unisolated names what stays beside the proxy with intercept_builtins.
const unisolated = "opencode merges the user's global and project opencode.json into the step's config: MCP servers and plugins " +
	"configured there still start, and a permission entry there that names their tools (e.g. \"github_*\": \"allow\") " +
	"keeps them beside the proxy; every built-in tool is denied by name and everything else by \"*\""
