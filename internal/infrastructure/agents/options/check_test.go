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
		"a": {Name: "a", Type: workflow.StateAgent, Provider: "fake", Options: map[string]any{"modle": "x", "model": 1},
			MCPProxy: &workflow.MCPProxy{Enable: true, InterceptBuiltins: true}},
		"b": {Name: "b", Type: workflow.StateAgent, Provider: "other", Options: map[string]any{"zzz": 1}},
		"c": {Name: "c", Type: workflow.StateAgent, Provider: "fake", MCPProxy: &workflow.MCPProxy{Enable: true, InterceptBuiltins: false}},
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
		got = append(got, string(d.Severity)+" "+d.Code+" "+d.Message)
	}
	want := []string{
		"error " + fault.UserAgentInvalidOption + ` step "a": option model of provider fake must be a string, got the number 1`,
		"error " + fault.UserAgentUnknownOption + ` step "a": unknown option "modle" for provider fake`,
		"warning " + fault.UserMCPProxyUnsupportedProvider + ` step "a": fake keeps its shell`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if CheckSteps(nil, "fake", testSchema.Validate, warn) != nil {
		t.Error("nil workflow")
	}
}
