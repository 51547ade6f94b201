package suggest

import "testing"

func TestClosest(t *testing.T) {
	tests := []struct {
		word, cand string
		match      bool
	}{
		{"abcd", "abxy", false},          // 4 letters: 1 edit
		{"abcd", "abce", true},           //
		{"abcde", "abxye", true},         // 5 letters: 2 edits
		{"abcdefgh", "abcdexyz", false},  // 8 letters: 2 edits
		{"abcdefghi", "abcdefxyz", true}, // 9 letters: 3 edits
		{"boo", "boolean", true},         // a prefix of 3 letters
		{"bo", "boolean", false},         // not of 2
		{"Claude", "claude", true},       // case does not matter
		{"ab", "xy", false},              // distance equal to the word's length is no match
		{"", "anything", false},
	}
	for _, tt := range tests {
		got := Closest(tt.word, []string{tt.cand})
		if (got != "") != tt.match {
			t.Errorf("Closest(%q, %q) = %q, want a match: %v", tt.word, tt.cand, got, tt.match)
		}
	}
	if got := Closest("ab", []string{"abcdef", "ac"}); got != "ac" {
		t.Errorf("the closer candidate wins: %q", got)
	}
	if got := Closest("anything", nil); got != "" {
		t.Errorf("no candidates, no match: %q", got)
	}
	if got := DidYouMean("zzz", nil); got != "" {
		t.Errorf("DidYouMean without candidates = %q", got)
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
