package workflow

import "testing"

func TestSuggest(t *testing.T) {
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
		if got := Suggest(tt.word, tt.candidates); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "abc", 0},
		{"abc", "acb", 1},
		{"kitten", "sitting", 3},
		{"ça", "ca", 1}, // runes, not bytes
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	if got := DidYouMean("comand", []string{"command", "agent"}); got != "did you mean 'command'?" {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("zzz", []string{"command", "agent"}); got != "valid: command, agent" {
		t.Errorf("got %q", got)
	}
}
