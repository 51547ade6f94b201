// Package gemini runs agent steps on Gemini CLI (`gemini --output-format json --prompt=…`).
//
// Verified with @google/gemini-cli 0.61.0 against a scripted Gemini API fake and an MCP
// server, by running the real CLI:
//
//   - There is no per-run MCP flag; servers come from settings only. A system settings file
//     (GEMINI_CLI_SYSTEM_SETTINGS_PATH) is skipped when any ancestor directory is writable by
//     others, /tmp included ("Security Warning: Skipping system settings file"), so the step's
//     private directory cannot hold one. The provider therefore points GEMINI_CLI_HOME at a
//     private home inside the step's directory: the CLI then reads <home>/.gemini/settings.json
//     as its user settings, and keeps its history and temp files there too, away from ~/.gemini.
//   - The private settings start from the user's own ~/.gemini/settings.json (read, never
//     written) minus its MCP server lists, so auth choice, model and sandbox settings carry
//     over; the proxy is the only server, trusted, and --allowed-mcp-server-names names it.
//     oauth_creds.json and google_accounts.json are copied (0600) so "Login with Google" keeps
//     working; API-key and Vertex users need nothing (the environment passes through).
//   - With GOOGLE_GEMINI_BASE_URL set and no auth type chosen, the CLI picks "gateway" and
//     refuses to start headless ("Invalid auth method selected", exit 41); the provider then
//     selects gemini-api-key when GEMINI_API_KEY is set.
//   - With intercept_builtins, a --policy file denying "*" (priority 900) and allowing
//     toolName "*" with mcpName=<server> (950) leaves the model exactly the proxy's tools
//     (mcp_<server>_<tool>). toolName is required in every rule, also with mcpName.
//   - Gemini drops an MCP tool whose bare name equals one of its excluded built-ins
//     (read_file, glob, web_fetch, search_file_content … — exact, case-sensitive). awf's Read,
//     Write, Edit, Bash, Glob, Grep, retrieve_tools and call_tool_* all reach the model; a
//     plugin tool named like a built-in would not, and Run refuses it (ShadowedTools).
//   - Errors are printed on stderr as a JSON object {session_id, error: {type, message,
//     code}} with a non-zero exit; success is a JSON object on stdout with response and stats.
//   - GEMINI_SYSTEM_MD=<file> replaces the built-in system prompt: that is system_prompt.
//   - Without an explicit model the CLI first asks a routing model (a side request); tests
//     against a fake model should pass options.model.
//   - Headless runs do keep their session: <home>/.gemini/tmp/<project>/chats/session-*.jsonl,
//     the project named after the working directory, and the JSON report carries its
//     session_id; `--resume=<session_id>` (also headless, from the same working directory)
//     sends the model the earlier turns again. An earlier "No previous sessions found" came
//     from the private home being removed after each call: a step that keeps its session now
//     runs in a home kept for the run (cli.Spec.PrivateHome).
package gemini

import (
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// Name is the provider name workflows write (`provider: gemini`).
const Name = workflow.ProviderGemini

// VerifiedVersion is the Gemini CLI release whose flags, settings and output this package was
// checked against.
const VerifiedVersion = "0.61.0"

// Spec is Gemini CLI for cli.New. Unisolated is "": with the private settings,
// --allowed-mcp-server-names and the deny-all-but-the-proxy policy, the model is offered the
// proxy's tools and nothing else (verified). Admin policies of the machine (/etc/gemini-cli)
// still apply, as they must.
var Spec = cli.Spec{
	Name:        Name,
	Executable:  "gemini",
	Install:     "npm install -g @google/gemini-cli@" + VerifiedVersion,
	Options:     stepOptions,
	NeedsDir:    needsDir,
	Plan:        plan,
	PrivateHome: usesPrivateHome,
	Parse:       parse,
	Hint:        "set GEMINI_API_KEY (or options.auth_type) and check options.base_url and options.model; run the same command by hand to see the full output",
}
