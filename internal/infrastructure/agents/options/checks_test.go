package options

import (
	"math"
	"strings"
	"testing"
)

func TestChecks(t *testing.T) {
	url := AbsoluteURL("http://127.0.0.1:8080/v1")
	between, whole := Between(0, 2), WholeBetween(1, 10)
	tests := []struct {
		name  string
		check func(any) string
		v     any
		want  string // "" for a good value, else a fragment of the problem
	}{
		{"non-empty", NonEmpty, "x", ""},
		{"blank", NonEmpty, " \t", "must not be empty"},
		{"absolute URL", url, "https://gw.example/v1", ""},
		{"no scheme", url, "localhost:8080", "must be an absolute URL such as http://127.0.0.1:8080/v1"},
		{"no host", url, "http://", "absolute URL"},
		{"unparsable", url, "http://[::1", "absolute URL"},
		{"low end", between, 0.0, ""},
		{"high end", between, 2.0, ""},
		{"below", between, -0.1, "must be a number between 0 and 2, got -0.1"},
		{"above", between, 2.1, "between 0 and 2"},
		{"whole, low end", whole, 1.0, ""},
		{"whole, high end", whole, 10.0, ""},
		{"fraction", whole, 1.5, "must be a whole number between 1 and 10, got 1.5"},
		{"zero", whole, 0.0, "between 1 and 10"},
		{"over", whole, 11.0, "between 1 and 10"},
		{"huge", WholeBetween(1, math.MaxInt32), float64(math.MaxInt32) + 1, "whole number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.check(tc.v)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("check(%v) = %q, want %q", tc.v, got, tc.want)
			}
		})
	}
}

func TestHintAndNeeds(t *testing.T) {
	s := Schema{Provider: "p", Options: []Option{
		{Name: "a", Kind: KindNumber, Hint: "use a small number"},
		{Name: "b", Kind: KindString, Example: "b: x"},
		{Name: "c", Kind: KindString},
	}, Needs: []Need{{Option: "a", Needs: "b", Why: "a scales b", Hint: "add b"}}}
	errs := s.Validate(map[string]any{"a": "x", "c": 1})
	want := []string{
		"a: [USER.AGENT.INVALID_OPTION] option a of provider p must be a number, got the string \"x\" (hint: use a small number)",
		"c: [USER.AGENT.INVALID_OPTION] option c of provider p must be a string, got the number 1 (hint: see the provider's documentation for the accepted values)",
		"a: [USER.AGENT.INVALID_OPTION] option a of provider p needs b: a scales b (hint: add b)",
	}
	if len(errs) != len(want) {
		t.Fatalf("problems = %v", errs)
	}
	for i, w := range want {
		if got := errs[i].Key + ": " + errs[i].Error(); got != w {
			t.Errorf("problem %d\n got %s\nwant %s", i, got, w)
		}
	}
	if errs := s.Validate(map[string]any{"a": 1, "b": "x"}); errs != nil {
		t.Errorf("a with b: %v", errs)
	}
	if _, err := s.Parse(map[string]any{"a": 1}); err == nil || !strings.Contains(err.Error(), "needs b") {
		t.Errorf("Parse must refuse an unmet need too: %v", err)
	}
	if errs := s.Validate(map[string]any{"b": "x"}); errs != nil {
		t.Errorf("b alone: %v", errs)
	}
}

func TestEnvFromGoMaps(t *testing.T) {
	s := Schema{Provider: "p", Options: []Option{{Name: "env", Kind: KindEnv}, {Name: "list", Kind: KindStrings}}}
	v, err := s.Parse(map[string]any{"env": map[string]string{"A": "1"}, "list": []string{"x"}})
	if err != nil || v.Env("env")["A"] != "1" || v.Strings("list")[0] != "x" {
		t.Fatalf("%v %v", v, err)
	}
	if errs := s.Validate(map[string]any{"env": map[string]string{"1A": "x"}}); len(errs) != 1 || !strings.Contains(errs[0].Error(), `"1A"`) {
		t.Errorf("a bad name in a Go map: %v", errs)
	}
	for _, bad := range []string{"", "1A", "A-B", "A B"} {
		if ValidEnvName(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, good := range []string{"A", "_", "a1", "A_B_9"} {
		if !ValidEnvName(good) {
			t.Errorf("%q refused", good)
		}
	}
}

func TestDescribe(t *testing.T) {
	for v, want := range map[any]string{nil: "nothing (null)", "s": `the string "s"`, true: "the boolean true", 3: "the number 3",
		int64(4): "the number 4", 1.5: "the number 1.5", int8(1): "a int8"} {
		if got := Describe(v); got != want {
			t.Errorf("Describe(%v) = %q, want %q", v, got, want)
		}
	}
	if Describe([]any{}) != "a list" || Describe(map[string]any{}) != "a mapping" {
		t.Error("Describe of containers")
	}
}
