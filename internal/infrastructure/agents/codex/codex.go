// Package codex runs agent steps on the Codex CLI (`codex exec --json …`).
//
// Verified with @openai/codex 0.169.0 (codex-cli 0.169.0) against a scripted OpenAI Responses
// fake, by running the real CLI:
//
//   - `codex exec --json --skip-git-repo-check [options] -- <prompt>` with stdin on /dev/null
//     prints one JSON event per line: thread.started (thread_id), turn.started, item.completed
//     (item.type agent_message carries the answer; item.type error is a warning such as
//     "Model metadata … not found"), turn.completed (usage) or turn.failed (error.message), and
//     non-fatal top-level error events ("Reconnecting… 2/5"). A failed turn exits 1.
//   - With a proxy, CODEX_HOME points at a private directory inside the step's, so nothing of
//     ~/.codex is read or written (auth then comes from the environment: CODEX_API_KEY, or the
//     env_key of the provider given by options). The proxy is attached with
//     -c mcp_servers.<server>.command/args (TOML values, quoted by cli.TOMLString) and
//     default_tools_approval_mode="approve": exec runs with approval policy "never", so a tool
//     not annotated read-only would otherwise be refused; awf's own intent rule already
//     decided which tools the step may call.
//   - --disable plugins --disable apps, analytics off and the update check off keep the run
//     quiet. With intercept_builtins, --disable shell_tool/multi_agent/goals/view_image and
//     web_search="disabled" leave four built-ins codex cannot switch off:
//     list_mcp_resources, list_mcp_resource_templates, read_mcp_resource, request_user_input
//     (hence the USER.MCP_PROXY.UNSUPPORTED_PROVIDER warning). The proxy's tools reach the
//     model inside one namespace tool mcp__<server>.
//   - developer_instructions (a -c override) adds a developer message: that is system_prompt.
//   - Sessions: thread.started carries the thread id, and `codex exec resume [options] --
//     <thread id> <prompt>` continues it (the same id again; the model is sent the earlier
//     turns) from the CODEX_HOME it started in. Only from there: the home's database records
//     the absolute path of the session's rollout, and a copy elsewhere fails with "no rollout
//     found for thread id". resume takes --json, --skip-git-repo-check, --model, -c and
//     --disable, not --sandbox (-c sandbox_mode instead) nor --cd. With a proxy, a step that
//     keeps its session drops --ephemeral and runs in a private home kept for the run
//     (cli.Spec.PrivateHome); without one, sessions live in the user's ~/.codex.
//   - With CODEX_HOME under /tmp codex warns "Refusing to create helper binaries under
//     temporary dir" on stderr; it is harmless and ignored.
package codex

import (
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// Name is the provider name workflows write (`provider: codex`).
const Name = workflow.ProviderCodex

// VerifiedVersion is the Codex CLI release whose flags and output this package was checked
// against.
const VerifiedVersion = "0.169.0"

// Spec is the Codex CLI for cli.New.
var Spec = cli.Spec{
	Name:        Name,
	Executable:  "codex",
	Install:     "npm install -g @openai/codex@" + VerifiedVersion,
	Options:     stepOptions,
	Needs:       needs,
	Unisolated:  unisolated,
	Plan:        plan,
	PrivateHome: privateHome,
	Parse:       parse,
	Hint:        hint,
	Watch:       watch,
}
