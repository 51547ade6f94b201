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
	"context"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// Name is the provider name workflows write (`provider: claude`).
const Name = "claude"

// VerifiedVersion is the Claude Code release whose flags and output this package was checked
// against.
const VerifiedVersion = "2.1.330"

var binary = cli.Binary{Provider: Name, Name: "claude", Install: "npm install -g @anthropic-ai/claude-code@" + VerifiedVersion}

// Provider implements ports.AgentProvider for Claude Code. It holds only configuration, so one
// value serves any number of concurrent steps.
type Provider struct{ cfg cli.Config }

// New returns the provider; the zero cli.Config inherits awf's environment and default limits.
func New(cfg cli.Config) *Provider { return &Provider{cfg: cfg} }

// Name implements ports.AgentProvider.
func (p *Provider) Name() string { return Name }

// Run implements ports.AgentProvider.
func (p *Provider) Run(ctx context.Context, req ports.AgentRequest) (ports.AgentResult, error) {
	return p.cfg.Execute(ctx, spec, req)
}

var spec = cli.Spec{Binary: binary, Schema: schema, Plan: plan, Parse: parse}
