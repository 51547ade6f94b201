package yamlrepo

import (
	"slices"
	"strings"
)

// stateKeyHints are unknown state keys people write for a reason: `agent:` nested as in other
// tools, and keys the reference awf reads in a state and then ignores, so workflows written for
// it carry them believing they work. awf refuses them, as any unknown key, with a hint saying
// what does the job here.
var stateKeyHints = map[string]string{
	"agent": "awf states are flat: write `type: agent` with `provider:` and `prompt:` directly in the state",
	"when": "a state has no `when`: put the condition on the way in, `transitions: [{when: '<expr>', goto: <state>}]` " +
		"(the reference awf ignores a state-level when, so the state always ran)",
	"depends_on": "states run in the order their transitions give; run states side by side with `type: parallel` " +
		"(the reference awf reads depends_on and ignores it)",
	"loop": "loops are states here: `type: for_each` with `items:` and `body: [<state>]`, or `type: while` " +
		"(the reference awf ignores a step's loop: block, so the step ran once)",
	"pre_hook":  "write `hooks: {pre: [{command: …}]}` (the reference awf documents pre_hook but ignores it)",
	"post_hook": "write `hooks: {post: [{command: …}]}` (the reference awf documents post_hook but ignores it)",
}

// inputRuleKeys are the rules an input takes under `validation:`.
var inputRuleKeys = []string{"pattern", "enum", "min", "max", "file_exists", "file_extension"}

// ignoredByReference returns the hint for an unknown key that has a better answer than a
// did-you-mean (stateKeyHints, input rules beside type), or false.
func ignoredByReference(key, where string) (string, bool) {
	switch {
	case strings.HasPrefix(where, "in state"):
		h, ok := stateKeyHints[key]
		return h, ok
	case where == "in an input" && slices.Contains(inputRuleKeys, key):
		return "rules go under `validation:`, e.g. `validation: {" + key + ": …}` (the reference awf ignores a rule written beside type, so nothing was checked)", true
	}
	return "", false
}
