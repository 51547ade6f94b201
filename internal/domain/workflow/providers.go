package workflow

// The agent providers a step may name with `provider:`. Each adapter package and the wiring in
// cmd/awf refer to these constants, so a provider's name is written once.
const (
	ProviderClaude           = "claude"
	ProviderGemini           = "gemini"
	ProviderCodex            = "codex"
	ProviderOpenCode         = "opencode"
	ProviderOpenAICompatible = "openai_compatible"
)

// Providers are the agent providers a step may name, in the order hints list them.
var Providers = []string{ProviderClaude, ProviderGemini, ProviderCodex, ProviderOpenCode, ProviderOpenAICompatible}
