package workflow

import (
	"fmt"
	"slices"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// Output formats and modes of agent steps, as the reference awf names them.
const (
	OutputText       = "text"
	OutputJSON       = "json"
	ModeSingle       = "single"
	ModeConversation = "conversation"
)

var (
	outputFormats = []string{OutputText, OutputJSON}
	agentModes    = []string{ModeSingle, ModeConversation}
	// ConversationKeys are the keys of a `conversation:` block the reference documents.
	ConversationKeys = []string{"continue_from"}
)

// Conversation is the `conversation:` block of an agent step: session tracking, and the step
// whose session to resume.
type Conversation struct {
	ContinueFrom string
}

// SessionProviders are the providers that can continue a session in this awf: the HTTP
// provider by sending the kept turns again, the CLIs by their own session stores (claude
// --resume, opencode --session, codex `exec resume`, gemini --resume). Every provider is one
// today; the check below stays for a provider added without a way to resume.
var SessionProviders = []string{ProviderOpenAICompatible, ProviderClaude, ProviderOpenCode, ProviderCodex, ProviderGemini}

// validateFormat checks output_format, mode and conversation. continue_from must name an agent
// state that keeps its session; a provider that cannot continue one is warned about, since its
// step fails when it has to.
func (a *AgentSpec) validateFormat(v *validator, s *State) {
	if written(s, "output_format") || a.OutputFormat != "" {
		if !slices.Contains(outputFormats, a.OutputFormat) {
			v.ds.Errorf(s.ValueAt("output_format"), fault.UserWorkflowInvalidValue, suggest.DidYouMean(a.OutputFormat, outputFormats),
				"output_format of state %q is %q; it must be text or json", s.Name, a.OutputFormat)
		}
	}
	if _, dup := a.Options["system_prompt"]; dup && a.SystemPrompt != "" {
		v.ds.Errorf(s.KeyAt("system_prompt"), fault.UserAgentPromptConflict, "keep either `system_prompt:` or `options.system_prompt`, not both",
			"state %q sets system_prompt twice", s.Name)
	}
	if (written(s, "mode") || a.Mode != "") && !slices.Contains(agentModes, a.Mode) {
		v.ds.Errorf(s.ValueAt("mode"), fault.UserWorkflowInvalidValue, suggest.DidYouMean(a.Mode, agentModes),
			"mode of state %q is %q; it must be single or conversation", s.Name, a.Mode)
	}
	if a.Conversation != nil && a.Conversation.ContinueFrom != "" {
		from := a.Conversation.ContinueFrom
		t := v.w.States[from]
		switch {
		case t == nil || t.Type != StateAgent:
			v.ds.Errorf(s.ValueAt("conversation.continue_from"), fault.UserWorkflowUnknownTarget, suggest.DidYouMean(from, v.stateNames),
				"conversation.continue_from of state %q names %q, which is not an agent state", s.Name, from)
		case !keepsSession(t):
			v.ds.Errorf(s.ValueAt("conversation.continue_from"), fault.UserConversationNoSession, fmt.Sprintf("add `conversation: {}` to state %q so that it keeps its session", from),
				"conversation.continue_from of state %q names %q, which keeps no session", s.Name, from)
		}
	}
	continues := (a.Conversation != nil && a.Conversation.ContinueFrom != "") || a.Mode == ModeConversation
	if continues && a.Provider != "" && !slices.Contains(SessionProviders, a.Provider) {
		v.ds.Warnf(s.ValueAt("provider"), fault.UserConversationUnsupported, "use provider "+strings.Join(SessionProviders, ", ")+" for conversations, or pass the earlier answer in the prompt ({{.states.<step>.Output}})",
			"state %q continues a conversation on provider %s, which this awf cannot resume a session of yet: the step fails when it has to continue one", s.Name, a.Provider)
	}
}

// keepsSession reports whether an agent state keeps a session another state can continue.
func keepsSession(s *State) bool {
	a, ok := s.Spec.(*AgentSpec)
	return ok && (a.Conversation != nil || a.Mode == ModeConversation)
}
