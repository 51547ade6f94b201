package options

import (
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

var testSchema = Schema{
	Provider: "fake",
	Options: []Option{
		{Name: "model", Kind: KindString, Check: NonEmpty, Example: "a model name"},
		{Name: "binary", Kind: KindString, Check: NonEmpty, Example: "a path"},
		{Name: "extra_args", Kind: KindStrings, Example: "a list"},
		{Name: "env", Kind: KindEnv, Example: "a mapping"},
		{Name: "mode", Kind: KindString, Choices: []string{"fast", "slow"}, Example: "mode: fast"},
		{Name: "budget", Kind: KindNumber, Example: "a number"},
		{Name: "strict", Kind: KindBool, Example: "true"},
	},
	Unsupported: map[string]string{"system_prompt": "write the instructions into the prompt"},
}

func TestSchemaValidate(t *testing.T) {
	tests := []struct {
		name     string
		opts     map[string]any
		wantKeys []string
		wantCode []string
		wantText []string
	}{
		{name: "nothing"},
		{name: "all well-typed", opts: map[string]any{
			"model": "m", "binary": "/x", "extra_args": []any{"--a", "b"}, "env": map[string]any{"A": "1", "B": int64(2), "C": true, "D": 1.5},
			"mode": "slow", "budget": int64(3), "strict": false,
		}},
		{name: "typo gets a suggestion", opts: map[string]any{"modle": "m"}, wantKeys: []string{"modle"},
			wantCode: []string{fault.UserAgentUnknownOption}, wantText: []string{"did you mean 'model'?"}},
		{name: "far-off name lists the valid ones", opts: map[string]any{"zzzzzzzz": 1}, wantKeys: []string{"zzzzzzzz"},
			wantCode: []string{fault.UserAgentUnknownOption}, wantText: []string{"valid: model, binary"}},
		{name: "unsupported common option", opts: map[string]any{"system_prompt": "x"}, wantKeys: []string{"system_prompt"},
			wantCode: []string{fault.UserAgentUnsupportedOption}, wantText: []string{"write the instructions into the prompt"}},
		{name: "every problem at once, sorted", opts: map[string]any{
			"model": 3, "extra_args": "--verbose", "env": map[string]any{"BAD-NAME": "x"}, "mode": "fsat", "budget": "lots", "strict": "yes",
		}, wantKeys: []string{"budget", "env", "extra_args", "mode", "model", "strict"},
			wantCode: []string{fault.UserAgentInvalidOption, fault.UserAgentInvalidOption, fault.UserAgentInvalidOption, fault.UserAgentInvalidOption, fault.UserAgentInvalidOption, fault.UserAgentInvalidOption},
			wantText: []string{"must be a number", "not a valid environment variable name", "must be a list of strings", "did you mean 'fast'?", "must be a string, got the number 3", "must be true or false"}},
		{name: "list item of the wrong type", opts: map[string]any{"extra_args": []any{"ok", int64(1)}}, wantKeys: []string{"extra_args"},
			wantCode: []string{fault.UserAgentInvalidOption}, wantText: []string{"item 1 is the number 1"}},
		{name: "nested env value", opts: map[string]any{"env": map[string]any{"A": []any{"x"}}}, wantKeys: []string{"env"},
			wantCode: []string{fault.UserAgentInvalidOption}, wantText: []string{"sets A to a list"}},
		{name: "empty model", opts: map[string]any{"model": "  "}, wantKeys: []string{"model"},
			wantCode: []string{fault.UserAgentInvalidOption}, wantText: []string{"must not be empty"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs := testSchema.Validate(tc.opts)
			if len(errs) != len(tc.wantKeys) {
				t.Fatalf("got %d problems %v, want keys %v", len(errs), errs, tc.wantKeys)
			}
			for i, e := range errs {
				if e.Key != tc.wantKeys[i] || e.Err.Code != tc.wantCode[i] || !strings.Contains(e.Error(), tc.wantText[i]) {
					t.Errorf("problem %d = %s %v, want %s %s containing %q", i, e.Key, e.Err, tc.wantKeys[i], tc.wantCode[i], tc.wantText[i])
				}
				if fault.ExitCode(e.Err) != fault.ExitUser || e.Err.Hint == "" {
					t.Errorf("problem %d must be a USER error with a hint: %v", i, e.Err)
				}
			}
		})
	}
}

func TestSchemaParseNormalises(t *testing.T) {
	v, err := testSchema.Parse(map[string]any{
		"model": "m", "extra_args": []any{"--a"}, "env": map[string]any{"N": int64(2), "F": 0.5, "G": 1.25, "B": true},
		"budget": int64(3), "strict": true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if v.String("model") != "m" || !reflect.DeepEqual(v.Strings("extra_args"), []string{"--a"}) ||
		!reflect.DeepEqual(v.Env("env"), map[string]string{"N": "2", "F": "0.5", "G": "1.25", "B": "true"}) {
		t.Errorf("values = %#v", v)
	}
	if n, ok := v.Number("budget"); !ok || n != 3 {
		t.Errorf("budget = %v %v", n, ok)
	}
	if b, ok := v.Bool("strict"); !ok || !b {
		t.Errorf("strict = %v %v", b, ok)
	}
	if v.Has("binary") || v.String("binary") != "" || v.Strings("nope") != nil {
		t.Error("absent options must read as zero values")
	}
	if _, err := testSchema.Parse(map[string]any{"modle": 1}); fault.CodeOf(err) != fault.UserAgentUnknownOption {
		t.Errorf("Parse must fail on the first problem, got %v", err)
	}
}
