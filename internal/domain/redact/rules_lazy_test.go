package redact

import (
	"strings"
	"testing"
)

// The rules' expressions are compiled on first use, so a broken one would only panic when its
// keyword first appears; this compiles every one of them.
func TestEveryRuleCompiles(t *testing.T) {
	for _, ru := range rules {
		if ru.re() == nil || ru.re().NumSubexp() < ru.group {
			t.Errorf("rule %s: group %d of %v", ru.id, ru.group, ru.re())
		}
	}
}

// The keyword index must find exactly the rules whose keywords strings.Contains finds.
func TestKeywordIndexMatchesContains(t *testing.T) {
	if len(rules) > 64 {
		t.Fatalf("%d rules do not fit the index's 64-bit set", len(rules))
	}
	texts := []string{"", "g", "gh", "ghp_", "xghp_y", "plain text without anything", "Bearer x bearer BEARER ",
		"a://b@c sk-ant-x sk-1 eyJ hf_ api_org_ npm_ PRIVATE KEY hooks.slack.com xapp- xox ya29. AIza",
		"GR1348941 A3T AKIA ASIA ABIA ACCA ABSK bedrock-api-key- github_pat_ glpat- gldt- glffct- glft- glimt- glagent- gloas- glptt- glrt- glsoat- glcbt-",
		"ends with gh", "ghghghgh_", "\xff\xfe sk"}
	for _, ru := range rules {
		for _, k := range ru.keywords {
			texts = append(texts, k, "x"+k, k[:len(k)-1], "<"+k[1:])
		}
	}
	for _, s := range texts {
		if got, want := keywords().rulesIn(s), naiveRulesIn(s); got != want {
			t.Errorf("rulesIn(%q) = %b, want %b", s, got, want)
		}
	}
}

func FuzzKeywordIndex(f *testing.F) {
	f.Add("ghp_ sk-ant- ://")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := keywords().rulesIn(s), naiveRulesIn(s); got != want {
			t.Errorf("rulesIn(%q) = %b, want %b", s, got, want)
		}
	})
}

// naiveRulesIn is what the keyword index must answer: the rules with a keyword in s, found by
// searching for every keyword.
func naiveRulesIn(s string) uint64 {
	var want uint64
	for i, ru := range rules {
		for _, k := range ru.keywords {
			if strings.Contains(s, k) {
				want |= 1 << i
			}
		}
	}
	return want
}
