package cli

import (
	"slices"
	"testing"
)

type testEvent struct {
	Type string `json:"type"`
	N    int    `json:"n"`
}

func TestEachEvent(t *testing.T) {
	for _, tc := range []struct {
		name, stdout string
		want         []testEvent
	}{
		{"empty", "", nil},
		{"in order", "{\"type\":\"a\",\"n\":1}\n{\"type\":\"b\",\"n\":2}\n", []testEvent{{"a", 1}, {"b", 2}}},
		{"no final newline, CRLF and indent", "  {\"type\":\"a\"}\r\n{\"type\":\"b\"}", []testEvent{{Type: "a"}, {Type: "b"}}},
		{"stray lines skipped", "warning: x\n\n[1]\n{not json\n{\"n\":3}\n{\"type\":\"\"}\n{\"type\":\"a\",\"n\":4}\n", []testEvent{{"a", 4}}},
		{"a fresh value per line", "{\"type\":\"a\",\"n\":5}\n{\"type\":\"b\"}\n", []testEvent{{"a", 5}, {Type: "b"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []testEvent
			n, err := EachEvent([]byte(tc.stdout), func(e *testEvent) string { return e.Type }, func(e *testEvent) { got = append(got, *e) })
			if err != nil {
				t.Fatal(err)
			}
			if n != len(tc.want) || !slices.Equal(got, tc.want) {
				t.Fatalf("got %d events %v, want %v", n, got, tc.want)
			}
		})
	}
}

// TestEachEventLongLine reads a line far longer than bufio's default token size.
func TestEachEventLongLine(t *testing.T) {
	long := "{\"type\":\"a\",\"pad\":\"" + string(slices.Repeat([]byte("x"), 1<<20)) + "\"}\n"
	n, err := EachEvent([]byte(long), func(e *testEvent) string { return e.Type }, func(*testEvent) {})
	if err != nil || n != 1 {
		t.Fatalf("got %d events, %v; want 1, nil", n, err)
	}
}
