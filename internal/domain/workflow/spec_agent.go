package workflow

import (
	"slices"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// agentStateKeys are the keys of an agent state besides the common ones.
var agentStateKeys = []string{"provider", "prompt", "prompt_file", "system_prompt", "output_format", "mode", "conversation", "options", "dir", "timeout", "mcp_proxy", "hooks", "on_success", "on_failure", "transitions", "retry"}

// AgentSpec is what an agent state asks of an AI coding agent.
type AgentSpec struct {
	Provider string
	// Prompt is inline text; PromptFile a path (relative to the project root) to read it from.
	// Both are templates; a workflow sets exactly one.
	Prompt     string
	PromptFile string
	Options    map[string]any
	// Dir is the working directory, relative to the project root; "" means the root.
	Dir      string
	MCPProxy *MCPProxy
	// SystemPrompt is a template given to the provider as its system prompt.
	SystemPrompt string
	// OutputFormat post-processes the answer: "text" strips a code fence around it, "json" also
	// parses it (a step whose answer is not JSON fails) and exposes it as .states.NAME.JSON.
	OutputFormat string
	// Mode is "single" (one call, the default) or "conversation"; Conversation is the
	// `conversation:` block. Conversation steps are refused until awf runs them (docs/decisions/0014-persisted-runs-and-conversations.md).
	Mode         string
	Conversation *Conversation
}

// Kind implements Spec.
func (*AgentSpec) Kind() StateType { return StateAgent }

func (a *AgentSpec) templates() []templateField {
	return []templateField{{"prompt", a.Prompt}, {"prompt_file", a.PromptFile}, {"system_prompt", a.SystemPrompt}, {"dir", a.Dir}}
}

func (a *AgentSpec) validate(v *validator, s *State) {
	if v.required(s, "provider", a.Provider, fault.UserAgentMissingProvider, "add `provider:` with one of "+strings.Join(Providers, ", ")) &&
		!slices.Contains(Providers, a.Provider) {
		v.ds.Errorf(s.ValueAt("provider"), fault.UserAgentUnknownProvider, suggest.DidYouMean(a.Provider, Providers),
			"state %q uses unknown provider %q", s.Name, a.Provider)
	}
	hasPrompt, hasFile := written(s, "prompt") || a.Prompt != "", written(s, "prompt_file") || a.PromptFile != ""
	switch {
	case hasPrompt && hasFile:
		v.ds.Errorf(laterKey(s, "prompt", "prompt_file"), fault.UserAgentPromptConflict, "keep `prompt:` for inline text or `prompt_file:` for a file, not both",
			"state %q sets both prompt and prompt_file", s.Name)
	case hasFile:
		v.required(s, "prompt_file", a.PromptFile, fault.UserAgentMissingPrompt, "give the path of the prompt file, or use `prompt:` instead")
	case hasPrompt:
		v.required(s, "prompt", a.Prompt, fault.UserAgentMissingPrompt, "write the instructions for the agent, or use `prompt_file:` instead")
	default:
		v.ds.Errorf(s.Pos, fault.UserAgentMissingPrompt, "add `prompt: <instructions>` or `prompt_file: <path>`",
			"agent state %q has neither prompt nor prompt_file", s.Name)
	}
	if a.MCPProxy != nil {
		v.proxy(s, a.MCPProxy)
	}
	a.validateFormat(v, s)
}
