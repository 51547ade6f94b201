package options

import (
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestCheckSteps(t *testing.T) {
	wf := &workflow.Workflow{Order: []string{"a", "b", "c"}, States: map[string]*workflow.State{
		"a": {Name: "a", Type: workflow.StateAgent,
			KeyPos:   map[string]fault.Position{"options.modle": at(3), "options.model": at(4)},
			ValuePos: map[string]fault.Position{"options.modle": at(13), "options.model": at(14)},
			Spec: &workflow.AgentSpec{Provider: "fake", Options: map[string]any{"modle": "x", "model": 1},
				MCPProxy: &workflow.MCPProxy{Enable: true, InterceptBuiltins: true, KeyPos: map[string]fault.Position{"intercept_builtins": at(5)}}}},
		"b": {Name: "b", Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: "other", Options: map[string]any{"zzz": 1}}},
		"c": {Name: "c", Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: "fake", MCPProxy: &workflow.MCPProxy{Enable: true, InterceptBuiltins: false}}},
	}}
	warn := func(intercept bool) string {
		if intercept {
			return "fake keeps its shell"
		}
		return ""
	}
	ds := CheckSteps(wf, "fake", testSchema.Validate, warn)
	var got []string
	for _, d := range ds {
		got = append(got, d.Position.String()+" "+string(d.Severity)+" "+d.Code+" "+d.Message)
	}
	want := []string{
		// A bad value is pointed at where the value is written, an unknown key at the key.
		"wf.yaml:14:1 error " + fault.UserAgentInvalidOption + ` step "a": option model of provider fake must be a string, got the number 1`,
		"wf.yaml:3:1 error " + fault.UserAgentUnknownOption + ` step "a": unknown option "modle" for provider fake`,
		"wf.yaml:5:1 warning " + fault.UserMCPProxyUnsupportedProvider + ` step "a": fake keeps its shell`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if w := ds.Warnings(); len(w) != 1 || !strings.HasSuffix(w[0].Hint, "or use a provider awf can isolate (claude, gemini)") {
		t.Errorf("the warning's hint names the providers that isolate: %v", w)
	}
	if ds := CheckSteps(wf, "fake", testSchema.Validate, nil); len(ds.Warnings()) != 0 || len(ds) != 2 {
		t.Errorf("without an isolation function (an in-process provider) there is no warning: %v", ds)
	}
	if CheckSteps(nil, "fake", testSchema.Validate, warn) != nil {
		t.Error("nil workflow")
	}
}

func at(line int) fault.Position { return fault.Position{File: "wf.yaml", Line: line, Column: 1} }
