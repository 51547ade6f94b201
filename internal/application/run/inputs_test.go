package run

import (
	"reflect"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

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
			fault.UserInputInvalidValue + `: input "verbose" must be a boolean, got "maybe" (use true or false)`,
			fault.UserInputInvalidValue + `: input "n" must be an integer, got "1.5" (use a whole number such as 42)`,
			fault.UserInputUnknown + `: unknown input "mdoe" (did you mean 'mode'?)`,
			fault.UserInputUnknown + `: unknown input "zzz" (declared inputs: count, verbose, mode, label, n)`,
		}},
		{"a workflow without inputs", nil, map[string]string{"x": "1"}, nil, []string{
			fault.UserInputUnknown + `: unknown input "x" (this workflow declares no inputs)`,
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
