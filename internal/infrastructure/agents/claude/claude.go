// Package claude runs agent steps on Claude Code (`claude -p … --output-format json`).
//
// Verified with @anthropic-ai/claude-code 2.1.330 against a scripted Anthropic Messages fake
// and awf mcp-serve: the flags below, the JSON report (result, usage, total_cost_usd,
// session_id, is_error, permission_denials), the exit status 1 with is_error: true on an API
// error, and that with --tools "" and ENABLE_TOOL_SEARCH=false the model is offered exactly
// the proxy's tools (mcp__<server>__<tool>).
//
// With a proxy the CLI gets a private --mcp-config file plus --strict-mcp-config, so the
// user's .mcp.json and ~/.claude.json servers stay out. In -p mode Claude denies every MCP
// call that was not granted, and still exits 0: the provider grants exactly the proxy's tools
// with --allowedTools and turns any permission_denials in the report into a step error.
// Claude keeps its own session bookkeeping (~/.claude.json, transcripts) as it always does;
// awf itself writes nothing outside the step's private directory.
package claude

import (
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// Name is the provider name workflows write (`provider: claude`).
const Name = workflow.ProviderClaude

// VerifiedVersion is the Claude Code release whose flags and output this package was checked
// against.
const VerifiedVersion = "2.1.330"

// Spec is Claude Code for cli.New. Unisolated is "": with --tools "", --strict-mcp-config and
// ENABLE_TOOL_SEARCH=false the model sees the proxy's tools and nothing else (verified).
var Spec = cli.Spec{
	Name:       Name,
	Executable: "claude",
	Install:    "npm install -g @anthropic-ai/claude-code@" + VerifiedVersion,
	Options:    stepOptions,
	Plan:       plan,
	Parse:      parse,
	Hint:       "set ANTHROPIC_API_KEY (or log in once with `claude`) and check ANTHROPIC_BASE_URL and options.model; run the same command by hand to see the full output",
}
