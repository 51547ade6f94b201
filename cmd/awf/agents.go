package main

import (
	"os"

	"go.opentelemetry.io/otel"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/claude"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/codex"
	"github.com/awf-dev/awf/internal/infrastructure/agents/gemini"
	"github.com/awf-dev/awf/internal/infrastructure/agents/openai"
	"github.com/awf-dev/awf/internal/infrastructure/agents/opencode"
)

// cliSpecs are the agent CLIs awf runs through the one generic CLI provider.
var cliSpecs = []cli.Spec{claude.Spec, gemini.Spec, codex.Spec, opencode.Spec}

// agentProviders returns one provider per supported agent, keyed by the YAML `provider` name.
func agentProviders(logger *zap.Logger) map[string]ports.AgentProvider {
	providers := map[string]ports.AgentProvider{
		openai.Name: openai.New(nil, logger, otel.Tracer("awf")),
	}
	for _, s := range cliSpecs {
		providers[s.Name] = cli.New(s, cli.Config{})
	}
	return providers
}

// providerChecks validate each provider's step options (unknown keys, wrong types) at load time,
// so `awf validate` catches them with file:line:col instead of the step failing mid-run.
func providerChecks() []validate.Check {
	checks := []validate.Check{openai.CheckWorkflow}
	for _, s := range cliSpecs {
		checks = append(checks, s.CheckWorkflow)
	}
	return checks
}

// inProcessProviders names the providers that call tools in-process instead of spawning
// `awf mcp-serve` (docs/design.md#tool-call-paths, path 2).
func inProcessProviders() map[string]bool {
	return map[string]bool{workflow.ProviderOpenAICompatible: true}
}

// selfPath is the awf binary agent CLIs spawn as `awf mcp-serve`.
func selfPath() string {
	if p, err := os.Executable(); err == nil {
		return p
	}
	return os.Args[0]
}
