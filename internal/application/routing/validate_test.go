package routing

import (
	"strings"
	"testing"
)

func TestCleanValidatorError(t *testing.T) {
	tests := []struct{ in, want string }{
		{`validating root: validating /properties/a: type: x has type "string", want "integer"`, `a: type: x has type "string", want "integer"`},
		{`validating root: validating /properties/a: validating /properties/a/items: validating /properties/a/items/properties/b: pattern: no`, `a[].b: pattern: no`},
		{`validating root: validating /properties/e: validating /properties/e/items: validating /$defs/edit: validating /$defs/edit/properties/o: bad`, `e[].o: bad`},
		{`validating root: oneOf: did not validate`, `oneOf: did not validate`},
		{`plain`, `plain`},
	}
	for _, tt := range tests {
		if got := cleanValidatorError(tt.in); got != tt.want {
			t.Errorf("cleanValidatorError(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTruncateString(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijkl", 10, "abcdefghij…[truncated 2 bytes]"},
		{"aé" + strings.Repeat("b", 10), 2, "a…[truncated 12 bytes]"}, // never splits é
	}
	for _, tt := range tests {
		if got := truncateString(tt.in, tt.limit); got != tt.want {
			t.Errorf("truncateString(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"Read", "Write", "Edit", "Bash", "Glob", "Grep", "notes_search"}
	tests := []struct{ in, want string }{
		{"read", "Read"}, {"Wrtie", "Write"}, {"Gerp", "Grep"}, {"note_search", "notes_search"}, {"deploy", ""},
	}
	for _, tt := range tests {
		if got := closest(tt.in, names); got != tt.want {
			t.Errorf("closest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestListNamesCapsLongLists(t *testing.T) {
	names := make([]string, maxListed+5)
	for i := range names {
		names[i] = "t"
	}
	if got := listNames(names); !strings.HasSuffix(got, "… and 5 more") {
		t.Errorf("listNames = %q", got)
	}
	if listNames(nil) != "(none)" {
		t.Error("empty list not shown as (none)")
	}
}
