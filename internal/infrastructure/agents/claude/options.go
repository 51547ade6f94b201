package claude

import (
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// permissionModes are the values of --permission-mode in the verified version.
var permissionModes = []string{"acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan"}

// stepOptions: the common options plus
//
//	append_system_prompt  --append-system-prompt (system_prompt replaces Claude's own prompt)
//	allowed_tools         more --allowedTools entries, e.g. "Bash(git diff:*)"
//	permission_mode       --permission-mode; with intercept_builtins the default is dontAsk
//	base_url              ANTHROPIC_BASE_URL, for a gateway or a local model server
var stepOptions = append(cli.Common(),
	options.Option{Name: "append_system_prompt", Kind: options.KindString, Example: "a string"},
	options.Option{Name: "allowed_tools", Kind: options.KindStrings, Example: `a list, e.g. allowed_tools: ["Bash(git diff:*)"]`},
	options.Option{Name: "permission_mode", Kind: options.KindString, Choices: permissionModes, Example: "permission_mode: dontAsk"},
	options.Option{Name: "base_url", Kind: options.KindString, Example: "a URL, e.g. base_url: http://127.0.0.1:8080"},
)
