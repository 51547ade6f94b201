package testkit

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// JSONLines reads a JSON-lines file (an activity log) into one map a line; a missing file or a
// line that is not a JSON object fails the test.
func JSONLines(t testing.TB, file string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("activity file: %v", err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("activity line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}
