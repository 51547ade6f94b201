package workflow

import (
	"slices"

	"github.com/awf-dev/awf/internal/domain/fault"
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

// ConversationUnsupported is the message of the error refusing a conversation step.
const ConversationUnsupported = "conversation steps are not supported yet; see issue 14"

// validateFormat checks output_format, mode and conversation. A conversation step is an error:
// running it as a one-shot call would silently drop what the workflow asks for.
func (a *AgentSpec) validateFormat(v *validator, s *State) {
	if written(s, "output_format") || a.OutputFormat != "" {
		if !slices.Contains(outputFormats, a.OutputFormat) {
			v.ds.Errorf(s.ValueAt("output_format"), fault.UserWorkflowInvalidValue, DidYouMean(a.OutputFormat, outputFormats),
				"output_format of state %q is %q; it must be text or json", s.Name, a.OutputFormat)
		}
	}
	if _, dup := a.Options["system_prompt"]; dup && a.SystemPrompt != "" {
		v.ds.Errorf(s.KeyAt("system_prompt"), fault.UserAgentPromptConflict, "keep either `system_prompt:` or `options.system_prompt`, not both",
			"state %q sets system_prompt twice", s.Name)
	}
	if (written(s, "mode") || a.Mode != "") && !slices.Contains(agentModes, a.Mode) {
		v.ds.Errorf(s.ValueAt("mode"), fault.UserWorkflowInvalidValue, DidYouMean(a.Mode, agentModes),
			"mode of state %q is %q; it must be single or conversation", s.Name, a.Mode)
	}
	if a.Conversation != nil && a.Conversation.ContinueFrom != "" {
		if t := v.w.States[a.Conversation.ContinueFrom]; t == nil || t.Type != StateAgent {
			v.ds.Errorf(s.ValueAt("conversation.continue_from"), fault.UserWorkflowUnknownTarget, DidYouMean(a.Conversation.ContinueFrom, v.stateNames),
				"conversation.continue_from of state %q names %q, which is not an agent state", s.Name, a.Conversation.ContinueFrom)
		}
	}
	switch {
	case a.Mode == ModeConversation:
		v.ds.Errorf(s.ValueAt("mode"), fault.UserWorkflowUnsupported, "run the step as a single call (remove `mode: conversation`), or wait for issue 14",
			"state %q: %s", s.Name, ConversationUnsupported)
	case a.Conversation != nil:
		v.ds.Errorf(s.KeyAt("conversation"), fault.UserWorkflowUnsupported, "remove `conversation:` to run the step as a single call, or wait for issue 14",
			"state %q: %s", s.Name, ConversationUnsupported)
	}
}
