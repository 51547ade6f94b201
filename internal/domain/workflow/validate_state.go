package workflow

import (
	"fmt"
	"slices"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/suggest"
)

// state checks one state: its type, the keys it may have, its kind's own rules, its
// transitions, its timeout and its templates.
func (v *validator) state(s *State) {
	switch {
	case s.Type == "":
		v.ds.Errorf(s.Pos, fault.UserWorkflowMissingStateType, "add `type: command`, `type: agent` or `type: terminal`",
			"state %q has no type", s.Name)
	case NewSpec(s.Type) != nil:
		v.keysForType(s)
	default:
		v.ds.Errorf(s.ValueAt("type"), fault.UserWorkflowUnknownStateType, suggest.DidYouMean(string(s.Type), StateTypeNames),
			"state %q has unknown type %q", s.Name, s.Type)
	}
	v.depth = v.nest.LoopDepth(s.Name)
	spec := s.spec()
	if spec != nil {
		spec.validate(v, s)
	}
	if !s.Ends() {
		v.transitions(s)
		if stateHasKey(s, "timeout") && s.Timeout <= 0 {
			v.ds.Errorf(s.ValueAt("timeout"), fault.UserWorkflowInvalidTimeout, "write a positive number of seconds (120) or a Go duration such as 30s or 500ms, or remove `timeout:` for no limit",
				"timeout of state %q must be positive, got %s", s.Name, s.Timeout)
		}
	}
	v.errorOK = v.onlyAfterFailure(s.Name)
	if spec != nil {
		for _, f := range spec.templates() {
			v.template(s, f.key, f.text)
		}
	}
	v.hooks(fmt.Sprintf("state %q", s.Name), s.Hooks.Named())
	v.errorOK = false
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
		case s.Ends() && (key == "on_success" || key == "on_failure"):
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
	for _, t := range Kinds() {
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

// transitions checks the targets of a command or agent state (or one whose type is unknown,
// so a typo in `type:` does not hide a typo in a target).
func (v *validator) transitions(s *State) {
	for _, t := range []struct{ key, target string }{{"on_success", s.OnSuccess}, {"on_failure", s.OnFailure}} {
		if t.target == "" || v.w.States[t.target] != nil {
			continue
		}
		v.ds.Errorf(s.ValueAt(t.key), fault.UserWorkflowUnknownTarget, suggest.DidYouMean(t.target, v.stateNames),
			"%s of state %q names unknown state %q", t.key, s.Name, t.target)
	}
	if s.Retry != nil {
		for _, pr := range s.Retry.Problems() {
			v.ds.Errorf(s.ValueAt("retry."+pr.Field), fault.UserWorkflowInvalidRetry, "see the retry keys: max_attempts, initial_delay, max_delay, backoff, multiplier, jitter, retryable_exit_codes",
				"retry of state %q: %s", s.Name, pr.Message)
		}
	}
	for i, tr := range s.Transitions {
		key := fmt.Sprintf("transitions[%d]", i)
		switch {
		case tr.Goto == "":
			v.ds.Errorf(s.ValueAt(key), fault.UserWorkflowMissingGoto, "add `goto: <state>` to the entry", "entry %d of transitions of state %q has no goto", i+1, s.Name)
		case v.w.States[tr.Goto] == nil:
			v.ds.Errorf(s.ValueAt(key+".goto"), fault.UserWorkflowUnknownTarget, suggest.DidYouMean(tr.Goto, v.stateNames),
				"transitions[%d].goto of state %q names unknown state %q", i, s.Name, tr.Goto)
		}
	}
	if s.SuccessTarget() != "" || s.alwaysMoves() || NewSpec(s.Type) == nil || v.nest.Owner(s.Name) != "" {
		return
	}
	pos, msg := s.Pos, fmt.Sprintf("state %q has no on_success: the run cannot go on after it", s.Name)
	if _, written := s.KeyPos["on_success"]; written {
		pos, msg = s.ValueAt("on_success"), fmt.Sprintf("on_success of state %q is empty", s.Name)
	}
	v.ds.Errorf(pos, fault.UserWorkflowNoExit, "add `on_success: <state>` or make it a terminal state (`type: terminal`)", "%s", msg)
}

// alwaysMoves reports whether a transition without `when` makes the state always go on.
func (s *State) alwaysMoves() bool {
	for _, tr := range s.Transitions {
		if tr.When == "" && tr.Goto != "" {
			return true
		}
	}
	return false
}

// targets are every state s may go to next: on_success, on_failure, on_complete, on_exhausted
// and each transition.
func (s *State) targets() []string {
	out := []string{s.OnSuccess, s.OnFailure}
	if l := s.Loop(); l != nil {
		out = append(out, l.OnComplete, l.OnExhausted)
	}
	for _, tr := range s.Transitions {
		out = append(out, tr.Goto)
	}
	return out
}
