package runinputs

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestParseInputFlags(t *testing.T) {
	got, ds := ParseInputFlags([]string{"a=1", "b==2", "c=", "bad", "=x", " d =4", "a=2", "e= sp "})
	want := Given{"a": {"1", "2"}, "b": {"=2"}, "c": {""}, "d": {"4"}, "e": {" sp "}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q want %q", got, want)
	}
	if len(ds) != 2 || ds[0].Code != fault.UserInputSyntax || !strings.Contains(ds[0].Message, `"bad"`) || !strings.Contains(ds[1].Message, `"=x"`) {
		t.Fatalf("diagnostics %v", ds)
	}
}

func TestResolveInputs(t *testing.T) {
	declared := []workflow.Input{
		{Name: "count", Type: workflow.InputInteger, Required: true},
		{Name: "verbose", Type: workflow.InputBoolean},
		{Name: "mode", Type: workflow.InputString, Default: "fast"},
		{Name: "label", Type: workflow.InputString},
		{Name: "n", Type: workflow.InputInteger},
	}
	tests := []struct {
		name   string
		inputs []workflow.Input
		given  map[string]string
		want   map[string]any
		diags  []string // code: message (hint)
	}{
		{"typed values and defaults", declared, map[string]string{"count": " 42 ", "verbose": "true"},
			map[string]any{"count": int64(42), "verbose": true, "mode": "fast", "label": "", "n": int64(0)}, nil},
		{"zero values of optional inputs", declared, map[string]string{"count": "1"},
			map[string]any{"count": int64(1), "verbose": false, "mode": "fast", "label": "", "n": int64(0)}, nil},
		{"every problem at once", declared, map[string]string{"verbose": "maybe", "n": "1.5", "mdoe": "x", "zzz": "y"}, nil, []string{
			fault.UserInputMissing + `: required input "count" (integer) is missing (pass it with --input count=<integer>)`,
			fault.UserInputInvalidValue + `: input "verbose" must be a boolean: "maybe" is not a boolean (use true or false (yes/no and 1/0 are accepted too))`,
			fault.UserInputInvalidValue + `: input "n" must be an integer: "1.5" is not a whole number (use a whole number such as 42)`,
			fault.UserInputUnknown + `: unknown input "mdoe" (did you mean 'mode'?)`,
			fault.UserInputUnknown + `: unknown input "zzz" (declared inputs: count, verbose, mode, label, n)`,
		}},
		{"a workflow without inputs", nil, map[string]string{"x": "1"}, nil, []string{
			fault.UserInputUnknown + `: unknown input "x" (this workflow declares no inputs)`,
		}},
		{"file_exists without a file system is refused, not skipped",
			[]workflow.Input{{Name: "f", Validation: &workflow.InputRules{FileExists: true}}}, map[string]string{"f": "x.txt"}, nil, []string{
				fault.UserInputFileNotFound + `: input "f": cannot check whether path "x.txt" exists (this caller of awf has no file system to check it with)`,
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ds := ResolveInputs(&workflow.Workflow{Inputs: tc.inputs, File: "wf.yaml"}, tc.given)
			var diags []string
			for _, d := range ds {
				diags = append(diags, d.Code+": "+d.Message+" ("+d.Hint+")")
			}
			if !reflect.DeepEqual(diags, tc.diags) {
				t.Fatalf("diagnostics\n%q\nwant\n%q", diags, tc.diags)
			}
			if tc.want != nil && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("values %#v, want %#v", got, tc.want)
			}
		})
	}
}

// fakePaths is a file system of a few paths; err makes every question fail.
type fakePaths struct {
	have  map[string]bool
	asked []string
	err   error
}

func (f *fakePaths) Exists(p string) (bool, error) {
	f.asked = append(f.asked, p)
	return f.have[p], f.err
}

func rules(r workflow.InputRules) *workflow.InputRules { return &r }

// TestInputResolverTypesAndRules covers each type and each rule, given and defaulted.
func TestInputResolverTypesAndRules(t *testing.T) {
	in := func(name string, typ workflow.InputType, r *workflow.InputRules) workflow.Input {
		return workflow.Input{Name: name, Type: typ, Validation: r, Pos: fault.Position{File: "wf.yaml", Line: 3, Column: 5}}
	}
	tests := []struct {
		name  string
		in    workflow.Input
		given []string
		want  any
		codes []string
		msg   string // part of the first message
	}{
		{"string kept as written", in("s", workflow.InputString, nil), []string{" a b "}, " a b ", nil, ""},
		{"untyped is a string", in("s", "", nil), []string{"x"}, "x", nil, ""},
		{"string given twice: the last wins", in("s", workflow.InputString, nil), []string{"a", "b"}, "b", nil, ""},
		{"integer", in("i", workflow.InputInteger, nil), []string{" -7 "}, int64(-7), nil, ""},
		{"integer out of range", in("i", workflow.InputInteger, nil), []string{"99999999999999999999"}, nil, []string{fault.UserInputInvalidValue}, "out of range"},
		{"number", in("x", workflow.InputNumber, nil), []string{"0.25"}, 0.25, nil, ""},
		{"number from an integer", in("x", workflow.InputNumber, nil), []string{"3"}, 3.0, nil, ""},
		{"number NaN refused", in("x", workflow.InputNumber, nil), []string{"NaN"}, nil, []string{fault.UserInputInvalidValue}, `"NaN" is not a number`},
		{"number Inf refused", in("x", workflow.InputNumber, nil), []string{"+Inf"}, nil, []string{fault.UserInputInvalidValue}, "not a number"},
		{"number text refused", in("x", workflow.InputNumber, nil), []string{"abc"}, nil, []string{fault.UserInputInvalidValue}, "must be a number"},
		{"boolean yes", in("b", workflow.InputBoolean, nil), []string{"YES"}, true, nil, ""},
		{"boolean 0", in("b", workflow.InputBoolean, nil), []string{"0"}, false, nil, ""},
		{"boolean f", in("b", workflow.InputBoolean, nil), []string{"f"}, false, nil, ""},
		{"array comma-separated", in("a", workflow.InputArray, nil), []string{"a, b ,c"}, workflow.InputList{"a", "b", "c"}, nil, ""},
		{"array JSON", in("a", workflow.InputArray, nil), []string{`["a b", 2, true]`}, workflow.InputList{"a b", 2.0, true}, nil, ""},
		{"array repeated flags join", in("a", workflow.InputArray, nil), []string{"a", `["b","c"]`, "d,e"}, workflow.InputList{"a", "b", "c", "d", "e"}, nil, ""},
		{"array empty text", in("a", workflow.InputArray, nil), []string{""}, workflow.InputList{}, nil, ""},
		{"array bad JSON", in("a", workflow.InputArray, nil), []string{`["a",`}, nil, []string{fault.UserInputInvalidValue}, "not a JSON list"},
		{"array JSON object refused", in("a", workflow.InputArray, nil), []string{`[{"a":1}`}, nil, []string{fault.UserInputInvalidValue}, "not a JSON list"},
		{"array too many items over flags", in("a", workflow.InputArray, nil), []string{strings.Repeat("x,", 6000), strings.Repeat("y,", 6000)}, nil, []string{fault.UserInputInvalidValue}, "12002 items"},
		{"array at the item cap over flags", in("a", workflow.InputArray, nil), []string{strings.Repeat("x,", 4999) + "x", strings.Repeat("y,", 4999) + "y"}, nil, nil, ""},
		{"NUL byte refused", in("s", workflow.InputString, nil), []string{"a\x00b"}, nil, []string{fault.UserInputInvalidValue}, "NUL byte at byte 1"},
		{"huge value refused", in("s", workflow.InputString, nil), []string{strings.Repeat("x", workflow.MaxInputBytes+1)}, nil, []string{fault.UserInputInvalidValue}, "bytes long"},
		{"invalid UTF-8 refused", in("s", workflow.InputString, nil), []string{"\xff"}, nil, []string{fault.UserInputInvalidValue}, "UTF-8"},
		{"required but empty", workflow.Input{Name: "s", Type: workflow.InputString, Required: true}, []string{""}, nil, []string{fault.UserInputMissing}, "is empty"},
		{"required array but empty", workflow.Input{Name: "a", Type: workflow.InputArray, Required: true}, []string{" "}, nil, []string{fault.UserInputMissing}, "is empty"},
		{"required integer 0 is a value", workflow.Input{Name: "i", Type: workflow.InputInteger, Required: true}, []string{"0"}, int64(0), nil, ""},
		{"optional array not given", in("a", workflow.InputArray, rules(workflow.InputRules{Pattern: "^x$"})), nil, workflow.InputList{}, nil, ""},
		{"optional number not given", in("x", workflow.InputNumber, rules(workflow.InputRules{Min: int64(5)})), nil, 0.0, nil, ""},
		{"array default", workflow.Input{Name: "a", Type: workflow.InputArray, Default: []any{"x", int64(2)}}, nil, workflow.InputList{"x", int64(2)}, nil, ""},
		{"number default from an integer", workflow.Input{Name: "x", Type: workflow.InputNumber, Default: int64(2)}, nil, 2.0, nil, ""},
		{"bad default at run time", workflow.Input{Name: "x", Type: workflow.InputInteger, Default: "2"}, nil, nil, []string{fault.UserInputInvalidDefault}, "cannot be used"},
		{"pattern ok", in("v", workflow.InputString, rules(workflow.InputRules{Pattern: `^v\d+$`})), []string{"v12"}, "v12", nil, ""},
		{"pattern mismatch", in("v", workflow.InputString, rules(workflow.InputRules{Pattern: `^v\d+$`})), []string{"12"}, nil, []string{fault.UserInputPatternMismatch}, `"12" does not match the pattern ^v\d+$`},
		{"pattern on each array item", in("v", workflow.InputArray, rules(workflow.InputRules{Pattern: `^v\d+$`})), []string{"v1,2,v3,x"}, nil,
			[]string{fault.UserInputPatternMismatch, fault.UserInputPatternMismatch}, `item #2: "2" does not match`},
		{"pattern that does not compile", in("v", workflow.InputString, rules(workflow.InputRules{Pattern: `(`})), []string{"x"}, nil, []string{fault.UserInputInvalidRule}, "does not compile"},
		{"enum ok", in("e", workflow.InputString, rules(workflow.InputRules{Enum: []any{"dev", "prod"}})), []string{"prod"}, "prod", nil, ""},
		{"enum miss with suggestion", in("e", workflow.InputString, rules(workflow.InputRules{Enum: []any{"dev", "prod"}})), []string{"prdo"}, nil, []string{fault.UserInputNotAllowed}, `"prdo" is not one of the allowed values`},
		{"enum of integers", in("i", workflow.InputInteger, rules(workflow.InputRules{Enum: []any{int64(1), int64(2)}})), []string{"2"}, int64(2), nil, ""},
		{"enum of integers miss", in("i", workflow.InputInteger, rules(workflow.InputRules{Enum: []any{int64(1), int64(2)}})), []string{"3"}, nil, []string{fault.UserInputNotAllowed}, "3 is not one of the allowed values"},
		{"enum of numbers", in("x", workflow.InputNumber, rules(workflow.InputRules{Enum: []any{int64(1), 0.5}})), []string{"1.0"}, 1.0, nil, ""},
		{"enum of booleans", in("b", workflow.InputBoolean, rules(workflow.InputRules{Enum: []any{true}})), []string{"no"}, nil, []string{fault.UserInputNotAllowed}, "false is not one"},
		{"enum on array items", in("a", workflow.InputArray, rules(workflow.InputRules{Enum: []any{"a", "b", "2"}})), []string{`["a",2,"c"]`}, nil, []string{fault.UserInputNotAllowed}, `item #3: "c"`},
		{"min", in("i", workflow.InputInteger, rules(workflow.InputRules{Min: int64(1), Max: int64(10)})), []string{"0"}, nil, []string{fault.UserInputOutOfRange}, "0 is below the minimum 1"},
		{"max", in("i", workflow.InputInteger, rules(workflow.InputRules{Min: int64(1), Max: int64(10)})), []string{"11"}, nil, []string{fault.UserInputOutOfRange}, "11 is above the maximum 10"},
		{"bounds are inclusive", in("i", workflow.InputInteger, rules(workflow.InputRules{Min: int64(1), Max: int64(10)})), []string{"10"}, int64(10), nil, ""},
		{"min inclusive", in("i", workflow.InputInteger, rules(workflow.InputRules{Min: int64(1)})), []string{"1"}, int64(1), nil, ""},
		{"large integers compared exactly", in("i", workflow.InputInteger, rules(workflow.InputRules{Max: int64(9007199254740992)})), []string{"9007199254740993"}, nil, []string{fault.UserInputOutOfRange}, "above the maximum"},
		{"number range", in("x", workflow.InputNumber, rules(workflow.InputRules{Min: 0.5, Max: int64(1)})), []string{"0.4"}, nil, []string{fault.UserInputOutOfRange}, "give a value from 0.5 to 1"},
		{"max alone", in("x", workflow.InputNumber, rules(workflow.InputRules{Max: 1.5})), []string{"2"}, nil, []string{fault.UserInputOutOfRange}, "at most 1.5"},
		{"extension", in("f", workflow.InputString, rules(workflow.InputRules{FileExtension: []string{".yaml", "yml"}})), []string{"conf/App.YML"}, "conf/App.YML", nil, ""},
		{"extension miss", in("f", workflow.InputString, rules(workflow.InputRules{FileExtension: []string{".yaml", ".yml"}})), []string{"notes.txt"}, nil, []string{fault.UserInputFileExtension}, "allowed: .yaml, .yml"},
		{"double extension", in("f", workflow.InputString, rules(workflow.InputRules{FileExtension: []string{".tar.gz"}})), []string{"a.tar.gz"}, "a.tar.gz", nil, ""},
		{"bare extension is not a file with it", in("f", workflow.InputString, rules(workflow.InputRules{FileExtension: []string{".go"}})), []string{"dir/.go"}, nil, []string{fault.UserInputFileExtension}, ""},
		{"every rule at once", in("f", workflow.InputString, rules(workflow.InputRules{Pattern: "^src/", Enum: []any{"a"}, FileExtension: []string{".go"}, FileExists: true})), []string{"lib/x.py"}, nil,
			[]string{fault.UserInputPatternMismatch, fault.UserInputNotAllowed, fault.UserInputFileExtension, fault.UserInputFileNotFound}, ""},
		{"file exists relative to the root", in("f", workflow.InputString, rules(workflow.InputRules{FileExists: true})), []string{"there.txt"}, "there.txt", nil, ""},
		{"file exists absolute", in("f", workflow.InputString, rules(workflow.InputRules{FileExists: true})), []string{"/abs/there"}, "/abs/there", nil, ""},
		{"file missing", in("f", workflow.InputString, rules(workflow.InputRules{FileExists: true})), []string{"../gone.txt"}, nil, []string{fault.UserInputFileNotFound}, `path "../gone.txt" (/gone.txt) does not exist`},
		{"default checked for file_exists", workflow.Input{Name: "f", Default: "gone", Validation: rules(workflow.InputRules{FileExists: true})}, nil, nil, []string{fault.UserInputFileNotFound}, "does not exist"},
		{"file exists on each item", in("f", workflow.InputArray, rules(workflow.InputRules{FileExists: true})), []string{"there.txt,gone"}, nil, []string{fault.UserInputFileNotFound}, `"gone"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := &fakePaths{have: map[string]bool{"/root/there.txt": true, "/abs/there": true}}
			wf := &workflow.Workflow{Inputs: []workflow.Input{tc.in}, File: "wf.yaml"}
			given := Given{}
			if tc.given != nil {
				given[tc.in.Name] = tc.given
			}
			got, ds := InputResolver{Paths: fs, Root: "/root"}.Resolve(wf, given)
			if c := codesOf(ds); !reflect.DeepEqual(c, tc.codes) {
				t.Fatalf("codes %v, want %v: %v", c, tc.codes, ds)
			}
			if len(ds) > 0 {
				if !strings.Contains(ds[0].Message+" ("+ds[0].Hint+")", tc.msg) || ds[0].Hint == "" || ds[0].Position != tc.in.Pos {
					t.Errorf("first diagnostic %q (hint %q) at %v; want %q at the input", ds[0].Message, ds[0].Hint, ds[0].Position, tc.msg)
				}
				if _, ok := got[tc.in.Name]; ok {
					t.Errorf("a refused value was kept: %#v", got)
				}
				return
			}
			if l, ok := got[tc.in.Name].(workflow.InputList); ok && tc.want == nil && len(l) == workflow.MaxInputItems {
				return // the item cap itself is allowed
			}
			if !reflect.DeepEqual(got[tc.in.Name], tc.want) {
				t.Errorf("value %#v (%T), want %#v (%T)", got[tc.in.Name], got[tc.in.Name], tc.want, tc.want)
			}
		})
	}
}

func codesOf(ds fault.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

func TestInputResolverProbeError(t *testing.T) {
	fs := &fakePaths{err: errors.New("permission denied")}
	wf := &workflow.Workflow{Inputs: []workflow.Input{{Name: "f", Validation: rules(workflow.InputRules{FileExists: true})}}}
	_, ds := InputResolver{Paths: fs, Root: "/r"}.Resolve(wf, Given{"f": {"a/b"}})
	if len(ds) != 1 || ds[0].Code != fault.UserInputFileNotFound || !strings.Contains(ds[0].Message, "cannot tell whether") || !strings.Contains(ds[0].Message, "permission denied") {
		t.Fatalf("diagnostics %v", ds)
	}
	if want := []string{filepath.Join("/r", "a/b")}; !reflect.DeepEqual(fs.asked, want) {
		t.Errorf("asked %v, want %v", fs.asked, want)
	}
}

func TestLongPathsAreCutInMessages(t *testing.T) {
	fs := &fakePaths{}
	wf := &workflow.Workflow{Inputs: []workflow.Input{{Name: "f", Validation: rules(workflow.InputRules{FileExists: true})}}}
	exact := "/" + strings.Repeat("p", 199)
	_, ds := InputResolver{Paths: fs, Root: "/r"}.Resolve(wf, Given{"f": {exact}})
	if len(ds) != 1 || !strings.Contains(ds[0].Message, `path "`+exact+`" does not exist`) {
		t.Fatalf("a 200-byte path was cut: %v", ds)
	}
	long := "/" + strings.Repeat("é", 150) // byte 200 falls inside an é
	_, ds = InputResolver{Paths: fs, Root: "/r"}.Resolve(wf, Given{"f": {long}})
	if want := `path "/` + strings.Repeat("é", 99) + `"… does not exist`; len(ds) != 1 || !strings.Contains(ds[0].Message, want) {
		t.Fatalf("diagnostics %v, want %q", ds, want)
	}
}
