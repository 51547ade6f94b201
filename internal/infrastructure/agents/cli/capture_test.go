package cli

import "testing"

func TestHeadBuffer(t *testing.T) {
	tests := []struct {
		name    string
		writes  []string
		want    string
		dropped int64
	}{
		{"fits", []string{"ab", "cd"}, "abcd", 0},
		{"exactly full", []string{"abcde"}, "abcde", 0},
		{"cut in a write", []string{"abc", "defg"}, "abcde", 2},
		{"nothing left", []string{"abcde", "fg", "h"}, "abcde", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &headBuffer{max: 5}
			for _, w := range tc.writes {
				if n, err := h.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v: the CLI must never be blocked", n, err)
				}
			}
			got, cut := h.result()
			if string(got) != tc.want || h.dropped != tc.dropped || cut != (tc.dropped > 0) {
				t.Errorf("kept %q, dropped %d (cut %v); want %q, %d", got, h.dropped, cut, tc.want, tc.dropped)
			}
		})
	}
}

func TestTailBuffer(t *testing.T) {
	tests := []struct {
		name    string
		writes  []string
		want    string
		dropped bool
	}{
		{"fits", []string{"ab", "cd"}, "abcd", false},
		{"exactly full in one write", []string{"abcde"}, "abcde", false},
		{"exactly full in two", []string{"ab", "cde"}, "abcde", false},
		{"one write too long", []string{"abcdefg"}, "cdefg", true},
		{"a full write after others", []string{"x", "abcde"}, "abcde", true},
		{"the oldest bytes go", []string{"abcd", "ef"}, "bcdef", true},
		{"an empty write", []string{"abc", ""}, "abc", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &tailBuffer{max: 5}
			for _, w := range tc.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if b.String() != tc.want || b.dropped != tc.dropped {
				t.Errorf("kept %q dropped %v; want %q %v", b.String(), b.dropped, tc.want, tc.dropped)
			}
		})
	}
}
