package workflow

import "slices"

// StateTypeNames are the words accepted after `type:`, in the order hints list them: each
// kind's own word, then the aliases ("step" is an alias of "command" kept for workflows written
// for earlier tools).
var StateTypeNames = func() []string {
	var out, aliases []string
	for _, k := range kinds {
		out = append(out, string(k.typ))
		aliases = append(aliases, k.aliases...)
	}
	return append(out, aliases...)
}()

// ParseStateType maps the YAML word to a StateType, resolving aliases. It returns false for any
// other word; the caller keeps the raw word so validation can suggest a fix.
func ParseStateType(word string) (StateType, bool) {
	for _, k := range kinds {
		if word == string(k.typ) || slices.Contains(k.aliases, word) {
			return k.typ, true
		}
	}
	return StateType(word), false
}

// commonStateKeys are accepted by every kind; each kind lists its other keys beside its spec. A
// key outside every list is unknown (a typo); a key of another kind is valid YAML for the wrong
// kind of state, which deserves its own message.
var commonStateKeys = []string{"type", "description"}

// StateKeys returns the keys a state of type t accepts. For a type awf does not know it returns
// every state key, so a typo in `type:` does not also flag each key of the state.
func StateKeys(t StateType) []string {
	out := append([]string(nil), commonStateKeys...)
	if k, ok := kindOf(t); ok {
		return append(out, k.keys...)
	}
	for _, k := range kinds {
		for _, key := range k.keys {
			if !slices.Contains(out, key) {
				out = append(out, key)
			}
		}
	}
	return out
}

// written reports whether key was written in the file the state came from.
func written(s *State, key string) bool {
	_, ok := s.KeyPos[key]
	return ok
}

// stateHasKey reports whether s sets key: written in the file or, for a State built in code,
// a common field holding a non-zero value. A kind's own keys cannot be set on another kind in
// code: its spec has no field for them.
func stateHasKey(s *State, key string) bool {
	if written(s, key) {
		return true
	}
	switch key {
	case "description":
		return s.Description != ""
	case "timeout":
		return s.Timeout != 0
	case "on_success":
		return s.OnSuccess != ""
	case "on_failure":
		return s.OnFailure != ""
	case "transitions":
		return len(s.Transitions) > 0
	case "retry":
		return s.Retry != nil
	case "hooks":
		return !s.Hooks.Empty()
	}
	return false
}

// stateKeyOrder is every state key in the order they are checked, so output is stable.
var stateKeyOrder = StateKeys("")
