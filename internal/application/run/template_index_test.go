package run

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestStrictIndex(t *testing.T) {
	data := map[string]any{
		"m":     map[string]any{"a": map[string]any{"b": "deep"}},
		"files": workflow.InputList{"x", "y"},
		"s":     "abc",
		"p":     &[]int{7},
		"ints":  map[int]string{1: "one"},
	}
	tests := []struct {
		item any
		keys []any
		want any
		err  string
	}{
		{data["m"], []any{"a", "b"}, "deep", ""},
		{data["m"], []any{"nope"}, nil, "no entry for key nope"},
		{data["m"], []any{1}, nil, "a key of type int cannot index a map with string keys"},
		{data["files"], []any{1}, "y", ""},
		{data["files"], []any{int64(0)}, "x", ""},
		{data["files"], []any{2}, nil, "index 2 out of range (the value has 2 items)"},
		{data["files"], []any{-1}, nil, "out of range"},
		{data["files"], []any{"0"}, nil, "indexed by an integer, not string"},
		{data["s"], []any{0}, uint8('a'), ""},
		{data["p"], []any{0}, 7, ""},
		{data["ints"], []any{1}, "one", ""},
		{true, []any{0}, nil, "cannot index a value of type bool"},
		{nil, []any{0}, nil, "cannot index a value of type nil"},
		{data["m"], nil, data["m"], ""},
		{nil, nil, nil, ""},
	}
	for _, tc := range tests {
		got, err := strictIndex(tc.item, tc.keys...)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("index %v %v: error %v, want %q", tc.item, tc.keys, err, tc.err)
			}
			continue
		}
		if err != nil || !equalAny(got, tc.want) {
			t.Errorf("index %v %v = %#v, %v; want %#v", tc.item, tc.keys, got, err, tc.want)
		}
	}
}

func equalAny(a, b any) bool {
	if m, ok := a.(map[string]any); ok {
		n, ok := b.(map[string]any)
		return ok && len(m) == len(n)
	}
	return a == b
}
