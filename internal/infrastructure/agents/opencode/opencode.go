// Package opencode runs agent steps on opencode (`opencode run --format json … -- <prompt>`).
//
// Verified with opencode-ai 1.18.33 against a scripted OpenAI Chat Completions fake and
// awf mcp-serve, by running the real CLI:
//
//   - `--format json` prints one JSON event per line: step_start, text (part.text), tool_use,
//     step_finish (part.tokens, part.cost) and, for a failed run, error (error.name,
//     error.data.message) with exit status 1.
//   - OPENCODE_CONFIG=<file> adds a config file; it does not replace the user's: the global
//     ~/.config/opencode config and the project's opencode.json are still merged in, so the
//     user's providers, models and auth keep working with nothing copied. The one thing the
//     variable does replace is a config file the user named in OPENCODE_CONFIG themselves, so
//     the private file starts from that file's content when there is one.
//   - The project's opencode.json is merged after OPENCODE_CONFIG: its "permission" entries
//     win over the private file's. OPENCODE_PERMISSION (same JSON) wins over both, key by key:
//     {"*":"deny","bash":"allow"} in a project plus {"*":"deny","awf_*":"allow"} in the
//     variable still left bash; naming bash (and every other built-in) "deny" in the variable
//     removed it. With intercept_builtins the provider therefore sets the permission set in
//     both places and denies each built-in by name; the model is then offered the proxy's
//     tools only (<server>_<tool>).
//   - "instructions": [<file>] in the config appends the file to the system prompt: that is
//     system_prompt.
//   - OPENCODE_DISABLE_AUTOUPDATE, _MODELS_FETCH, _DEFAULT_PLUGINS, _LSP_DOWNLOAD and _SHARE
//     keep the run quiet (one background npm install attempt remains; offline it only logs).
//     _DEFAULT_PLUGINS also drops opencode's built-in auth plugins: a step that logs in
//     through one sets env: {OPENCODE_DISABLE_DEFAULT_PLUGINS: ""}.
package opencode

import (
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// Name is the provider name workflows write (`provider: opencode`).
const Name = workflow.ProviderOpenCode

// VerifiedVersion is the opencode release whose flags, config and output this package was
// checked against.
const VerifiedVersion = "1.18.33"

// Spec is opencode for cli.New.
var Spec = cli.Spec{
	Name:       Name,
	Executable: "opencode",
	Install:    "npm install -g opencode-ai@" + VerifiedVersion,
	Options:    stepOptions,
	Unisolated: unisolated,
	NeedsDir:   needsDir,
	Plan:       plan,
	Parse:      parse,
	Hint:       hint,
	Watch:      watch,
}
