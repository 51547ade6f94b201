package yamlrepo

import (
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

const inputsTail = `states:
  initial: done
  done:
    type: terminal
`

func TestInputsOfEveryType(t *testing.T) {
	w, ds := loadText(t, `name: typed
inputs:
  - name: file
    type: string
    required: true
    description: what to read
    validation:
      pattern: '^src/.*'
      enum: [8080, src/a.go]
      file_exists: true
      file_extension: [.go, py]
  - name: count
    type: integer
    default: 3
    validation: {min: 1, max: 10, enum: [1, 3]}
  - name: ratio
    type: number
    default: 0.5
    validation: {min: 0, max: 1.5}
  - name: files
    type: array
    default: [a.go, b.go]
    validation: {file_extension: [.go]}
  - name: dry
    type: boolean
    default: false
    validation:
`+inputsTail)
	if ds != "" {
		t.Fatalf("diagnostics:\n%s", ds)
	}
	want := []*workflow.InputRules{
		{Pattern: "^src/.*", Enum: []any{"8080", "src/a.go"}, FileExists: true, FileExtension: []string{".go", "py"}},
		{Min: int64(1), Max: int64(10), Enum: []any{int64(1), int64(3)}},
		{Min: int64(0), Max: 1.5},
		{FileExtension: []string{".go"}},
		nil,
	}
	for i, in := range w.Inputs {
		if !reflect.DeepEqual(in.Validation, want[i]) {
			t.Errorf("input %s rules %#v, want %#v", in.Name, in.Validation, want[i])
		}
	}
	if d := w.Inputs[3].Default; !reflect.DeepEqual(d, []any{"a.go", "b.go"}) || w.Inputs[2].Default != 0.5 || w.Inputs[2].Type != workflow.InputNumber {
		t.Errorf("defaults %#v %#v", d, w.Inputs[2])
	}
	if p := w.ValueAt("inputs[0].validation.enum[1]"); p.Line != 9 || p.Column != 20 {
		t.Errorf("enum[1] at %v", p)
	}
}

// TestBadInputRules asserts every problem of a file full of broken rules, each at its place.
func TestBadInputRules(t *testing.T) {
	_, ds := loadText(t, `name: bad
inputs:
  - name: a
    type: string
    validation:
      patern: x
      pattern: '(['
      min: 1
      enum: []
  - name: b
    type: integer
    default: 20
    validation:
      max: 10
      min: 1.5
      enum: [1, two]
      file_exists: true
  - name: c
    type: number
    validation: {min: 2, max: 1}
  - name: d
    type: array
    default: [x.txt]
    validation: {file_extension: [".md", "/", ""], max: "3"}
  - name: e
    type: string
    default: prod2
    validation: {enum: [dev, prod], pattern: '^p'}
  - name: f
    type: boolean
    default: "yes"
    validation: {pattern: x}
  - name: g
    type: sting
    validation: {min: 1}
`+inputsTail)
	for _, want := range []string{
		`6:7: error: unknown key "patern" in an input's validation [USER.WORKFLOW.UNKNOWN_KEY]` + "\n    hint: did you mean 'pattern'?",
		`7:16: error: the pattern of input "a" does not compile`,
		`8:12: error: input "a" is a string; validation rule min applies to integer, number inputs only [USER.INPUT.INVALID_RULE]`,
		`9:13: error: enum of input "a" lists no values`,
		`12:14: error: the default of input "b" breaks its own validation: 20 is above the maximum 10 [USER.INPUT.INVALID_DEFAULT]`,
		`15:12: error: min of input "b" is 1.5, not an integer`,
		`16:17: error: enum value #2 of input "b" is "two", not an integer`,
		`17:20: error: input "b" is an integer; validation rule file_exists applies to string, array inputs only`,
		`20:31: error: input "c" has min 2 above max 1, so no value could pass`,
		`23:14: error: the default of input "d" breaks its own validation: item #1: "x.txt" does not end with an allowed extension`,
		`24:42: error: file_extension of input "d" lists "/", which is not a file extension`,
		`24:47: error: file_extension of input "d" lists "", which is not a file extension`,
		`24:57: error: max must be a number, got the text "3" [USER.WORKFLOW.INVALID_VALUE]`,
		`27:14: error: the default of input "e" breaks its own validation: "prod2" is not one of the allowed values`,
		`hint: did you mean 'prod'? allowed: dev, prod`,
		`31:14: error: default "yes" of input "f" is not a boolean`,
		`32:27: error: input "f" is a boolean; validation rule pattern applies to string, array inputs only`,
		`34:11: error: input "g" has unknown type "sting"`,
	} {
		if !strings.Contains(ds, want) {
			t.Errorf("missing %q", want)
		}
	}
	if n := strings.Count(ds, "error:"); n != 17 {
		t.Errorf("%d errors, want 17:\n%s", n, ds)
	}
}
