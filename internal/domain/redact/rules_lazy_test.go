package redact

import "testing"

// The rules' expressions are compiled on first use, so a broken one would only panic when its
// keyword first appears; this compiles every one of them.
func TestEveryRuleCompiles(t *testing.T) {
	for _, ru := range rules {
		if ru.re() == nil || ru.re().NumSubexp() < ru.group {
			t.Errorf("rule %s: group %d of %v", ru.id, ru.group, ru.re())
		}
	}
}
