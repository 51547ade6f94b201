package workflow

import (
	"fmt"
	"slices"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

var terminalStatusNames = []string{string(StatusSuccess), string(StatusFailure)}

func (v *validator) state(s *State) {
	switch s.Type {
	case "":
		v.ds.Errorf(s.Pos, fault.UserWorkflowMissingStateType, "add `type: command`, `type: agent` or `type: terminal`",
			"state %q has no type", s.Name)
	case StateCommand, StateAgent, StateTerminal:
		v.keysForType(s)
	default:
		v.ds.Errorf(s.ValueAt("type"), fault.UserWorkflowUnknownStateType, DidYouMean(string(s.Type), StateTypeNames),
			"state %q has unknown type %q", s.Name, s.Type)
	}
	switch s.Type {
	case StateCommand:
		v.required(s, "command", s.Command, fault.UserWorkflowMissingCommand, "add `command: <shell command>`")
	case StateAgent:
		v.agent(s)
	case StateTerminal:
		if s.Status != "" && s.Status != StatusSuccess && s.Status != StatusFailure {
			v.ds.Errorf(s.ValueAt("status"), fault.UserWorkflowInvalidStatus, DidYouMean(string(s.Status), terminalStatusNames),
				"terminal state %q has status %q; it must be success or failure", s.Name, s.Status)
		}
	}
	if s.Type != StateTerminal {
		v.transitions(s)
	}
	if stateHasKey(s, "timeout") && s.Timeout <= 0 && s.Type != StateTerminal {
		v.ds.Errorf(s.ValueAt("timeout"), fault.UserWorkflowInvalidTimeout, "write a positive Go duration such as 30s or 5m, or remove `timeout:` for no limit",
			"timeout of state %q must be positive, got %s", s.Name, s.Timeout)
	}
	for _, f := range templateFields {
		v.template(s, f.key, f.get(s))
	}
}

// keysForType flags keys that exist but belong to another type of state.
func (v *validator) keysForType(s *State) {
	allowed := StateKeys(s.Type)
	for _, key := range stateKeyOrder {
		if slices.Contains(allowed, key) || !stateHasKey(s, key) {
			continue
		}
		pos := s.KeyAt(key)
		switch {
		case s.Type == StateTerminal && (key == "on_success" || key == "on_failure"):
			v.ds.Errorf(pos, fault.UserWorkflowTerminalTransition,
				fmt.Sprintf("remove `%s:`, or make %q a command or agent state", key, s.Name),
				"terminal state %q must not have %s: a terminal state ends the run", s.Name, key)
		case key == "mcp_proxy":
			v.ds.Errorf(pos, fault.UserWorkflowKeyNotAllowed, "move `mcp_proxy:` to an agent state, or remove it",
				"mcp_proxy is only valid on agent states, and %q is a %s state", s.Name, s.Type)
		default:
			v.ds.Errorf(pos, fault.UserWorkflowKeyNotAllowed,
				fmt.Sprintf("remove `%s:`, or change `type:` to %s", key, typesAccepting(key)),
				"key %q is not valid for %s states", key, s.Type)
		}
	}
}

// typesAccepting lists the state types whose keys include key, for hints.
func typesAccepting(key string) string {
	var out []string
	for _, t := range []StateType{StateCommand, StateAgent, StateTerminal} {
		if slices.Contains(StateKeys(t), key) {
			out = append(out, string(t))
		}
	}
	return strings.Join(out, " or ")
}

// required reports a missing or empty string key of a state.
func (v *validator) required(s *State, key, value, code, hint string) bool {
	if strings.TrimSpace(value) != "" {
		return true
	}
	if _, written := s.KeyPos[key]; written {
		v.ds.Errorf(s.ValueAt(key), code, hint, "%s of state %q is empty", key, s.Name)
	} else {
		v.ds.Errorf(s.Pos, code, hint, "%s state %q has no %s", s.Type, s.Name, key)
	}
	return false
}

func (v *validator) agent(s *State) {
	if v.required(s, "provider", s.Provider, fault.UserAgentMissingProvider, "add `provider:` with one of "+strings.Join(Providers, ", ")) &&
		!slices.Contains(Providers, s.Provider) {
		v.ds.Errorf(s.ValueAt("provider"), fault.UserAgentUnknownProvider, DidYouMean(s.Provider, Providers),
			"state %q uses unknown provider %q", s.Name, s.Provider)
	}
	hasPrompt, hasFile := stateHasKey(s, "prompt"), stateHasKey(s, "prompt_file")
	switch {
	case hasPrompt && hasFile:
		pos := s.KeyAt("prompt_file")
		if p := s.KeyAt("prompt"); p.Line > pos.Line || p.Line == pos.Line && p.Column > pos.Column {
			pos = p // point at whichever comes second
		}
		v.ds.Errorf(pos, fault.UserAgentPromptConflict, "keep `prompt:` for inline text or `prompt_file:` for a file, not both",
			"state %q sets both prompt and prompt_file", s.Name)
	case hasFile:
		v.required(s, "prompt_file", s.PromptFile, fault.UserAgentMissingPrompt, "give the path of the prompt file, or use `prompt:` instead")
	case hasPrompt:
		v.required(s, "prompt", s.Prompt, fault.UserAgentMissingPrompt, "write the instructions for the agent, or use `prompt_file:` instead")
	default:
		v.ds.Errorf(s.Pos, fault.UserAgentMissingPrompt, "add `prompt: <instructions>` or `prompt_file: <path>`",
			"agent state %q has neither prompt nor prompt_file", s.Name)
	}
	if s.MCPProxy != nil {
		v.proxy(s, s.MCPProxy)
	}
}

// transitions checks the targets of a command or agent state (or one whose type is unknown,
// so a typo in `type:` does not hide a typo in a target).
func (v *validator) transitions(s *State) {
	for _, t := range []struct{ key, target string }{{"on_success", s.OnSuccess}, {"on_failure", s.OnFailure}} {
		if t.target == "" || v.w.States[t.target] != nil {
			continue
		}
		v.ds.Errorf(s.ValueAt(t.key), fault.UserWorkflowUnknownTarget, DidYouMean(t.target, v.stateNames),
			"%s of state %q names unknown state %q", t.key, s.Name, t.target)
	}
	if s.OnSuccess != "" || (s.Type != StateCommand && s.Type != StateAgent) {
		return
	}
	pos, msg := s.Pos, fmt.Sprintf("state %q has no on_success: the run cannot go on after it", s.Name)
	if _, written := s.KeyPos["on_success"]; written {
		pos, msg = s.ValueAt("on_success"), fmt.Sprintf("on_success of state %q is empty", s.Name)
	}
	v.ds.Errorf(pos, fault.UserWorkflowNoExit, "add `on_success: <state>` or make it a terminal state (`type: terminal`)", "%s", msg)
}
