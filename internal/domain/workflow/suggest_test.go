package workflow

import (
	"testing"

	"github.com/awf-dev/awf/internal/domain/suggest"
)

// TestSuggestsWorkflowNames holds the judgement of suggest.Closest against the names a workflow
// author misspells: state keys, providers, input types, variants and state types.
func TestSuggestsWorkflowNames(t *testing.T) {
	stateKeys := StateKeys("")
	tests := []struct {
		word       string
		candidates []string
		want       string
	}{
		{"on_sucess", stateKeys, "on_success"},
		{"comand", stateKeys, "command"},
		{"promt", stateKeys, "prompt"},
		{"timout", stateKeys, "timeout"},
		{"on_sucess", []string{"on_failure", "on_success"}, "on_success"},
		{"on_failrue", stateKeys, "on_failure"}, // adjacent swap counts as one edit
		{"claud", Providers, "claude"},
		{"Claude", Providers, "claude"}, // case does not matter
		{"gemeni", Providers, "gemini"},
		{"openai", Providers, "openai_compatible"}, // prefix
		{"int", inputTypeNames, "integer"},
		{"bool", inputTypeNames, "boolean"},
		{"wrte", variantNames, "write"},
		{"shell", StateTypeNames, ""}, // too far from anything
		{"x", StateTypeNames, ""},
		{"ab", []string{"xy"}, ""}, // distance equal to the word's length is no match
		{"", Providers, ""},
		{"anything", nil, ""},
		{"agnet", StateTypeNames, "agent"},
		{"terminl", StateTypeNames, "terminal"},
	}
	for _, tt := range tests {
		if got := suggest.Closest(tt.word, tt.candidates); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}
