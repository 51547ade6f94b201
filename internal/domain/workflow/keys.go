package workflow

import "slices"

// StateTypeNames are the words accepted after `type:`, in the order hints list them. "step" is
// an alias of "command" kept for workflows written for earlier tools.
var StateTypeNames = []string{"command", "agent", "terminal", "step"}

// ParseStateType maps the YAML word to a StateType, resolving the "step" alias. It returns false
// for any other word; the caller keeps the raw word so validation can suggest a fix.
func ParseStateType(word string) (StateType, bool) {
	switch word {
	case "command", "step":
		return StateCommand, true
	case "agent":
		return StateAgent, true
	case "terminal":
		return StateTerminal, true
	}
	return StateType(word), false
}

// Keys of a state, grouped by the state types that accept them. A key outside every group is
// unknown (a typo); a key of another group is valid YAML for the wrong type of state, which
// deserves its own message.
var (
	commonStateKeys   = []string{"type", "description"}
	commandStateKeys  = []string{"command", "dir", "timeout", "on_success", "on_failure"}
	agentStateKeys    = []string{"provider", "prompt", "prompt_file", "options", "dir", "timeout", "mcp_proxy", "on_success", "on_failure"}
	terminalStateKeys = []string{"status", "message"}
)

// StateKeys returns the keys a state of type t accepts. For a type awf does not know it returns
// every state key, so a typo in `type:` does not also flag each key of the state.
func StateKeys(t StateType) []string {
	var out []string
	out = append(out, commonStateKeys...)
	switch t {
	case StateCommand:
		return append(out, commandStateKeys...)
	case StateAgent:
		return append(out, agentStateKeys...)
	case StateTerminal:
		return append(out, terminalStateKeys...)
	}
	for _, group := range [][]string{commandStateKeys, agentStateKeys, terminalStateKeys} {
		for _, k := range group {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// stateHasKey reports whether s sets key: written in the file (KeyPos) or, for a State built in
// code, holding a non-zero value.
func stateHasKey(s *State, key string) bool {
	if _, ok := s.KeyPos[key]; ok {
		return true
	}
	switch key {
	case "description":
		return s.Description != ""
	case "command":
		return s.Command != ""
	case "dir":
		return s.Dir != ""
	case "provider":
		return s.Provider != ""
	case "prompt":
		return s.Prompt != ""
	case "prompt_file":
		return s.PromptFile != ""
	case "options":
		return len(s.Options) > 0
	case "timeout":
		return s.Timeout != 0
	case "mcp_proxy":
		return s.MCPProxy != nil
	case "on_success":
		return s.OnSuccess != ""
	case "on_failure":
		return s.OnFailure != ""
	case "status":
		return s.Status != ""
	case "message":
		return s.Message != ""
	}
	return false
}

// stateKeyOrder is every state key in the order they are checked, so output is stable.
var stateKeyOrder = StateKeys("")
