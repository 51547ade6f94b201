package gemini

import (
	"testing"
)

func TestLastObject(t *testing.T) {
	tests := map[string]bool{
		"noise\n{\n  \"error\": {\"message\": \"x\"}\n}": true,
		"{\"error\": {\"message\": \"x\"}}":              true,
		"noise {\n  \"a\": {\n  }\n}\n{\"error\": {}}":   true,
		"just text":                 false,
		"trace {\n  status: 400\n}": false,
		"{\n  \"error\": {\"message\": \"unterminated\"": false,
	}
	for in, want := range tests {
		if _, ok := lastObject(in); ok != want {
			t.Errorf("lastObject(%q) = %v, want %v", in, ok, want)
		}
	}
}
