package usecase

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Overrides replace recorded inputs typed as the workflow declares them; the others keep their
// recorded values; an unknown or ill-typed override changes nothing and is reported.
func TestOverrideInputs(t *testing.T) {
	wf := &workflow.Workflow{Name: "w", Inputs: []workflow.Input{
		{Name: "who", Type: workflow.InputString, Required: true},
		{Name: "secs", Type: workflow.InputInteger},
	}}
	tests := []struct {
		overrides []string
		want      map[string]any
		problem   string
	}{
		{nil, map[string]any{"who": "x", "secs": 60}, ""},
		{[]string{"secs=0"}, map[string]any{"who": "x", "secs": 0}, ""},
		{[]string{"who=y", "secs=2"}, map[string]any{"who": "y", "secs": 2}, ""},
		{[]string{"nope=1"}, map[string]any{"who": "x", "secs": 60}, fault.UserInputUnknown},
		{[]string{"secs=soon"}, map[string]any{"who": "x", "secs": 60}, fault.UserInputInvalidValue},
		{[]string{"=1"}, map[string]any{"who": "x", "secs": 60}, fault.UserInputSyntax},
	}
	for _, tt := range tests {
		v := &view{}
		u := Run{View: v, RunPorts: RunPorts{Redactor: redact.New(nil)}}
		rec := runrecord.Record{Inputs: map[string]any{"who": "x", "secs": 60}}
		err := u.overrideInputs(&rec, wf, tt.overrides)
		if tt.problem == "" && err != nil {
			t.Errorf("%v: %v", tt.overrides, err)
		}
		if tt.problem != "" {
			codes := fault.CodeOf(err)
			for _, d := range v.inputs {
				codes += " " + d.Code
			}
			if err == nil || !strings.Contains(codes, tt.problem) {
				t.Errorf("%v: %v (%s), want %s", tt.overrides, err, codes, tt.problem)
			}
		}
		for k, want := range tt.want {
			if got := rec.Inputs[k]; got != want && !(isInt(got, want)) {
				t.Errorf("%v: %s = %v (%T), want %v", tt.overrides, k, got, got, want)
			}
		}
	}
}

// isInt compares an int want with whatever integer type the resolver gave.
func isInt(got, want any) bool {
	w, ok := want.(int)
	if !ok {
		return false
	}
	switch g := got.(type) {
	case int64:
		return g == int64(w)
	case float64:
		return g == float64(w)
	}
	return false
}
