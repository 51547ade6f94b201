package workflow

import (
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// TestValidateInputRulesInCode checks each rule problem on a workflow built in code: the code,
// the message, and the place (the input's own position when the file recorded none).
func TestValidateInputRulesInCode(t *testing.T) {
	at := fault.Position{File: "wf.yaml", Line: 4, Column: 5}
	r := func(x InputRules) *InputRules { return &x }
	tests := []struct {
		name  string
		in    Input
		codes []string
		msg   string
	}{
		{"no rules", Input{Type: InputString}, nil, ""},
		{"sound rules of every type", Input{Type: InputString, Validation: r(InputRules{Pattern: "^a", Enum: []any{"a"}, FileExists: true, FileExtension: []string{".a"}})}, nil, ""},
		{"integer rules", Input{Type: InputInteger, Validation: r(InputRules{Min: int64(1), Max: int64(1), Enum: []any{int64(1)}})}, nil, ""},
		{"number rules", Input{Type: InputNumber, Validation: r(InputRules{Min: 0.5, Max: int64(2), Enum: []any{1.5, int64(1)}})}, nil, ""},
		{"boolean enum", Input{Type: InputBoolean, Validation: r(InputRules{Enum: []any{true}})}, nil, ""},
		{"array rules", Input{Type: InputArray, Validation: r(InputRules{Pattern: "x", Enum: []any{"x"}, FileExists: true, FileExtension: []string{"md"}})}, nil, ""},
		{"untyped is a string", Input{Validation: r(InputRules{Pattern: "("})}, []string{fault.UserInputInvalidRule}, "the pattern of input \"i\" does not compile"},
		{"pattern on an integer", Input{Type: InputInteger, Validation: r(InputRules{Pattern: "x"})}, []string{fault.UserInputInvalidRule}, "input \"i\" is an integer; validation rule pattern applies to string, array inputs only"},
		{"pattern too long", Input{Type: InputString, Validation: r(InputRules{Pattern: strings.Repeat("x", MaxPatternLen+1)})}, []string{fault.UserInputInvalidRule}, "4097 characters"},
		{"min on a boolean", Input{Type: InputBoolean, Validation: r(InputRules{Min: int64(1)})}, []string{fault.UserInputInvalidRule}, "rule min applies to integer, number inputs only"},
		{"max on an array", Input{Type: InputArray, Validation: r(InputRules{Max: int64(1)})}, []string{fault.UserInputInvalidRule}, "rule max"},
		{"file rules on a number", Input{Type: InputNumber, Validation: r(InputRules{FileExists: true, FileExtension: []string{".a"}})}, []string{fault.UserInputInvalidRule, fault.UserInputInvalidRule}, "file_exists"},
		{"empty enum", Input{Type: InputString, Validation: r(InputRules{Enum: []any{}})}, []string{fault.UserInputInvalidRule}, "lists no values"},
		{"enum of the wrong type", Input{Type: InputInteger, Validation: r(InputRules{Enum: []any{int64(1), "2", 2.5, nil}})}, []string{fault.UserInputInvalidRule, fault.UserInputInvalidRule, fault.UserInputInvalidRule}, `enum value #2 of input "i" is "2", not an integer`},
		{"enum of an array is text", Input{Type: InputArray, Validation: r(InputRules{Enum: []any{int64(1)}})}, []string{fault.UserInputInvalidRule}, "not a string"},
		{"fractional bound of an integer", Input{Type: InputInteger, Validation: r(InputRules{Min: 0.5})}, []string{fault.UserInputInvalidRule}, "min of input \"i\" is 0.5, not an integer"},
		{"text bound", Input{Type: InputNumber, Validation: r(InputRules{Max: "3"})}, []string{fault.UserInputInvalidRule}, `max of input "i" is "3", not a number`},
		{"min above max", Input{Type: InputNumber, Validation: r(InputRules{Min: 2.5, Max: int64(2)})}, []string{fault.UserInputInvalidRule}, "min 2.5 above max 2"},
		{"min equal to max", Input{Type: InputInteger, Validation: r(InputRules{Min: int64(2), Max: int64(2)})}, nil, ""},
		{"bad extensions", Input{Type: InputString, Validation: r(InputRules{FileExtension: []string{".", "a/b", `a\b`, "x\x00", ".ok"}})}, []string{fault.UserInputInvalidRule, fault.UserInputInvalidRule, fault.UserInputInvalidRule, fault.UserInputInvalidRule}, `lists "."`},
		{"default against rules", Input{Type: InputInteger, Default: int64(20), Validation: r(InputRules{Max: int64(10)})}, []string{fault.UserInputInvalidDefault}, `the default of input "i" breaks its own validation: 20 is above the maximum 10`},
		{"default against a sound bound only", Input{Type: InputInteger, Default: int64(20), Validation: r(InputRules{Min: 0.5, Max: int64(10)})}, []string{fault.UserInputInvalidRule, fault.UserInputInvalidDefault}, ""},
		{"default not checked against a broken range", Input{Type: InputInteger, Default: int64(20), Validation: r(InputRules{Min: int64(30), Max: int64(10)})}, []string{fault.UserInputInvalidRule}, ""},
		{"default not checked against a broken enum", Input{Type: InputString, Default: "x", Validation: r(InputRules{Enum: []any{}})}, []string{fault.UserInputInvalidRule}, ""},
		{"default not checked against a broken pattern", Input{Type: InputString, Default: "x", Validation: r(InputRules{Pattern: "("})}, []string{fault.UserInputInvalidRule}, ""},
		{"default not checked against an inapplicable rule", Input{Type: InputBoolean, Default: true, Validation: r(InputRules{Pattern: "x"})}, []string{fault.UserInputInvalidRule}, ""},
		{"default not checked against bad extensions", Input{Type: InputString, Default: "a.md", Validation: r(InputRules{FileExtension: []string{"/"}})}, []string{fault.UserInputInvalidRule}, ""},
		{"default file need not exist at validate time", Input{Type: InputString, Default: "nowhere.md", Validation: r(InputRules{FileExists: true})}, nil, ""},
		{"default with a NUL", Input{Type: InputString, Default: "a\x00"}, []string{fault.UserInputInvalidDefault}, `the default of input "i" cannot be used: the value contains a NUL byte`},
		{"number default", Input{Type: InputNumber, Default: int64(1)}, nil, ""},
		{"array default", Input{Type: InputArray, Default: []any{"a"}}, nil, ""},
		{"array default of the wrong type", Input{Type: InputArray, Default: "a,b"}, []string{fault.UserInputInvalidDefault}, `default "a,b" of input "i" is not an array`},
		{"unknown type skips rules", Input{Type: "list", Validation: r(InputRules{Min: "x"})}, []string{fault.UserInputInvalidType}, "awf inputs are string, integer, number, boolean, array"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := build()
			tc.in.Name, tc.in.Pos = "i", at
			w.Inputs = append(w.Inputs, tc.in)
			ds := Validate(w)
			if got := codes(ds); !reflect.DeepEqual(got, append([]string{}, tc.codes...)) {
				t.Fatalf("codes %v, want %v: %v", got, tc.codes, ds)
			}
			for _, d := range ds {
				if d.Position != at || d.Hint == "" {
					t.Errorf("%s at %v with hint %q; want the input's position and a hint", d.Code, d.Position, d.Hint)
				}
			}
			if len(ds) > 0 && !strings.Contains(ds[0].Message, tc.msg) {
				t.Errorf("message %q lacks %q", ds[0].Message, tc.msg)
			}
		})
	}
}

// TestValidateInputRulePositions: each problem points at its rule, or its enum value, when
// the file recorded them; else at the input.
func TestValidateInputRulePositions(t *testing.T) {
	p := func(l, c int) fault.Position { return fault.Position{File: "wf.yaml", Line: l, Column: c} }
	w := build()
	w.Inputs = []Input{{Name: "target", Type: InputInteger, Pos: p(3, 5), Validation: &InputRules{Enum: []any{int64(1), "x", "y"}, Pattern: "x", Min: 0.5}}}
	w.Pos = map[string]fault.Position{"inputs[0].validation.pattern": p(5, 7)}
	w.ValuePos = map[string]fault.Position{"inputs[0].validation.enum": p(6, 13), "inputs[0].validation.enum[1]": p(6, 17)}
	var got []string
	for _, d := range Validate(w) {
		if strings.HasPrefix(d.Code, "USER.INPUT") {
			got = append(got, d.Position.String())
		}
	}
	want := []string{p(3, 5).String(), p(5, 7).String(), p(6, 13).String(), p(6, 17).String()}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("positions %v, want %v", got, want)
	}
	w.File, w.Inputs[0].Pos, w.Pos, w.ValuePos = "", fault.Position{}, nil, nil
	for _, d := range Validate(w) {
		if strings.HasPrefix(d.Code, "USER.INPUT") && d.Position != (fault.Position{}) {
			t.Errorf("without a file, %s is at %v", d.Code, d.Position)
		}
	}
}

// TestValidateTemplateKinds: the validator types references for comparisons from the
// declared inputs and the fields of states.
func TestValidateTemplateKinds(t *testing.T) {
	w := build()
	w.Inputs = []Input{{Name: "target", Type: InputString}, {Name: "n", Type: InputInteger}, {Name: "x", Type: InputNumber},
		{Name: "b", Type: InputBoolean}, {Name: "l", Type: InputArray}}
	v := &validator{w: w}
	tests := map[string]string{
		"inputs": KindMap, "inputs.target": KindString, "inputs.n": KindInt, "inputs.x": KindFloat, "inputs.b": KindBool, "inputs.l": KindList,
		"inputs.nope": "", "inputs.n.x": "", "states": KindMap, "states.build": KindMap, "states.build.ExitCode": KindInt,
		"states.build.exit_code": KindInt, "states.build.Output": KindString, "states.build.status": KindString, "states.build.Nope": "",
		"states.build.Output.x": "", "env": KindMap, "env.HOME": KindString, "env.HOME.x": "", "workflow": KindMap, "workflow.ID": KindString, "workflow.name": KindString, "workflow.duration": "", "loop.Item": "", "states.build.JSON": "",
	}
	for path, want := range tests {
		if got := v.kindAt(strings.Split(path, ".")); got != want {
			t.Errorf("kindAt(%s) = %q, want %q", path, got, want)
		}
	}
	w.States["build"].Command().Command = "echo {{if eq .inputs.n `3`}}x{{end}}\n{{with .states.ask}}{{.Nope}}{{end}}"
	w.States["ask"].OnFailure = "build" // ask can run before build
	var got []string
	for _, d := range Validate(w) {
		got = append(got, d.Code+": "+d.Message)
	}
	want := []string{
		fault.UserTemplateUnknownField + `: line 2 of command of state "build" reads unknown field "Nope" of state "ask" (.states.ask.Nope)`,
		fault.UserTemplateTypeMismatch + `: command of state "build": eq compares integer with string, which Go templates refuse`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics\n%q\nwant\n%q", got, want)
	}
}
