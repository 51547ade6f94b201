package workflow

import (
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

func TestCheckRules(t *testing.T) {
	r := func(x InputRules) *InputRules { return &x }
	tests := []struct {
		name  string
		in    Input
		v     any
		codes []string
		msg   string // parts (separated by " | ") of the messages "msg / hint"
	}{
		{"no rules", Input{Type: InputString}, "x", nil, ""},
		{"pattern matches somewhere", Input{Type: InputString, Validation: r(InputRules{Pattern: "b"})}, "abc", nil, ""},
		{"pattern anchored", Input{Type: InputString, Validation: r(InputRules{Pattern: "^b$"})}, "abc", []string{fault.UserInputPatternMismatch}, `"abc" does not match the pattern ^b$ / give a value that matches ^b$`},
		{"pattern at the length cap", Input{Type: InputString, Validation: r(InputRules{Pattern: strings.Repeat("a", MaxPatternLen)})}, "a", []string{fault.UserInputPatternMismatch}, ""},
		{"pattern too long", Input{Type: InputString, Validation: r(InputRules{Pattern: strings.Repeat("a", MaxPatternLen+1)})}, "a", []string{fault.UserInputInvalidRule}, "4097 characters long"},
		{"enum with suggestion", Input{Type: InputString, Validation: r(InputRules{Enum: []any{"staging", "prod"}})}, "stagng", []string{fault.UserInputNotAllowed}, `"stagng" is not one of the allowed values / did you mean 'staging'? allowed: staging, prod`},
		{"enum without suggestion", Input{Type: InputString, Validation: r(InputRules{Enum: []any{"a", "b"}})}, "zzzz", []string{fault.UserInputNotAllowed}, "/ allowed: a, b"},
		{"enum case matters", Input{Type: InputString, Validation: r(InputRules{Enum: []any{"prod"}})}, "PROD", []string{fault.UserInputNotAllowed}, ""},
		{"enum of integers", Input{Type: InputInteger, Validation: r(InputRules{Enum: []any{int64(1), int64(2)}})}, int64(2), nil, ""},
		{"enum of integers miss", Input{Type: InputInteger, Validation: r(InputRules{Enum: []any{int64(1), int64(2)}})}, int64(5), []string{fault.UserInputNotAllowed}, "5 is not one of the allowed values / allowed: 1, 2"},
		{"enum of numbers holds an integer", Input{Type: InputNumber, Validation: r(InputRules{Enum: []any{int64(2), 0.5}})}, 2.0, nil, ""},
		{"enum of booleans", Input{Type: InputBoolean, Validation: r(InputRules{Enum: []any{true}})}, true, nil, ""},
		{"enum of booleans miss", Input{Type: InputBoolean, Validation: r(InputRules{Enum: []any{true}})}, false, []string{fault.UserInputNotAllowed}, ""},
		{"enum with a list value never matches", Input{Type: InputString, Validation: r(InputRules{Enum: []any{[]any{"a"}}})}, "a", []string{fault.UserInputNotAllowed}, ""},
		{"min", Input{Type: InputInteger, Validation: r(InputRules{Min: int64(3)})}, int64(2), []string{fault.UserInputOutOfRange}, "2 is below the minimum 3 / give a value of at least 3"},
		{"min equal", Input{Type: InputInteger, Validation: r(InputRules{Min: int64(3)})}, int64(3), nil, ""},
		{"max", Input{Type: InputNumber, Validation: r(InputRules{Max: 1.5})}, 1.6, []string{fault.UserInputOutOfRange}, "1.6 is above the maximum 1.5 / give a value of at most 1.5"},
		{"max equal", Input{Type: InputNumber, Validation: r(InputRules{Max: 1.5})}, 1.5, nil, ""},
		{"both", Input{Type: InputNumber, Validation: r(InputRules{Min: int64(0), Max: int64(1)})}, -0.1, []string{fault.UserInputOutOfRange}, "give a value from 0 to 1"},
		{"exact big integers", Input{Type: InputInteger, Validation: r(InputRules{Min: int64(9007199254740993)})}, int64(9007199254740992), []string{fault.UserInputOutOfRange}, ""},
		{"enum and range together", Input{Type: InputInteger, Validation: r(InputRules{Enum: []any{int64(50)}, Max: int64(10)})}, int64(20), []string{fault.UserInputNotAllowed, fault.UserInputOutOfRange}, ""},
		{"extension", Input{Type: InputString, Validation: r(InputRules{FileExtension: []string{"md"}})}, "README.MD", nil, ""},
		{"extension miss", Input{Type: InputString, Validation: r(InputRules{FileExtension: []string{".md", ".txt"}})}, "a.go", []string{fault.UserInputFileExtension}, `"a.go" does not end with an allowed extension / allowed: .md, .txt`},
		{"array items, each rule", Input{Type: InputArray, Validation: r(InputRules{Pattern: "^[a-z.]+$", Enum: []any{"a.md", "1"}, FileExtension: []string{".md"}})}, InputList{"a.md", 1.0, "B.md"},
			[]string{fault.UserInputPatternMismatch, fault.UserInputFileExtension, fault.UserInputPatternMismatch, fault.UserInputNotAllowed}, `item #2: "1" does not end | item #3: "B.md" does not match the pattern | item #3: "B.md" is not one`},
		{"array not a list", Input{Type: InputArray, Validation: r(InputRules{Pattern: "x"})}, "x", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := CheckRules(tc.in, tc.v)
			var codes, msgs []string
			for _, v := range vs {
				codes = append(codes, v.Code)
				msgs = append(msgs, v.Msg+" / "+v.Hint)
			}
			if !reflect.DeepEqual(codes, tc.codes) {
				t.Fatalf("codes %v, want %v (%q)", codes, tc.codes, msgs)
			}
			all := strings.Join(msgs, " | ")
			for _, part := range strings.Split(tc.msg, " | ") {
				if !strings.Contains(all, part) {
					t.Errorf("messages %q lack %q", all, part)
				}
			}
		})
	}
}

func TestHasExtension(t *testing.T) {
	tests := []struct {
		path string
		exts []string
		want bool
	}{
		{"a.go", []string{".go"}, true},
		{"a.go", []string{"go"}, true},
		{"dir.go/a", []string{".go"}, false},
		{`dir\a.GO`, []string{".go"}, true},
		{"a.tar.gz", []string{".tar.gz"}, true},
		{"a.gz", []string{".tar.gz"}, false},
		{".go", []string{".go"}, false},
		{"x/.go", []string{".go"}, false},
		{"ago", []string{".go"}, false},
		{"a.", []string{"."}, false},
		{"a.yml", []string{".yaml", ".yml"}, true},
		{"a", nil, false},
	}
	for _, tc := range tests {
		if got := HasExtension(tc.path, tc.exts); got != tc.want {
			t.Errorf("HasExtension(%q, %q) = %v, want %v", tc.path, tc.exts, got, tc.want)
		}
	}
}

func TestFilePaths(t *testing.T) {
	fe := &InputRules{FileExists: true}
	tests := []struct {
		in   Input
		v    any
		want []string
	}{
		{Input{Validation: fe}, "a", []string{"a"}},
		{Input{Validation: fe, Type: InputArray}, InputList{"a", 2.0}, []string{"a", "2"}},
		{Input{Validation: &InputRules{}}, "a", nil},
		{Input{}, "a", nil},
		{Input{Validation: fe}, int64(1), nil},
	}
	for _, tc := range tests {
		if got := FilePaths(tc.in, tc.v); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FilePaths(%+v, %#v) = %q, want %q", tc.in, tc.v, got, tc.want)
		}
	}
}
