package run

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

func TestPlan(t *testing.T) {
	a := cmdState("a", "echo {{.inputs.who}} {{.env.HOME}}", "b", "bad")
	b := cmdState("b", "echo {{.states.a.Output}}", "done", "")
	b.Transitions = []workflow.Transition{{When: "states.a.exit_code == 1", Goto: "bad"}}
	ag := agentState("hello {{.inputs.who}}")
	ag.Name = "ask"
	ag.Agent().MCPProxy = &workflow.MCPProxy{Enable: true, InterceptBuiltins: true, PluginTools: []workflow.PluginTools{{Plugin: "gh", Expose: []string{"issues"}}},
		Intent: workflow.DefaultIntent()}
	loop := &workflow.State{Name: "loop", Type: workflow.StateForEach, OnSuccess: "done",
		Spec: &workflow.ForEachSpec{Items: `{{.inputs.who}}`, MaxConcurrent: 2, LoopSpec: workflow.LoopSpec{Body: []string{"inner"}, MaxIterations: 3, OnExhausted: "bad"}}}
	inner := cmdState("inner", "echo {{.loop.item}}", "", "")
	inner.Command().Env = []workflow.EnvVar{{Name: "WHO", Value: "{{.inputs.who}}"}}
	wf := flow(a, b, ag, loop, inner)
	wf.States["b"].OnSuccess = "ask"
	wf.States["ask"].OnSuccess = "loop"
	plan := Plan(wf, map[string]any{"who": "it's"}, []string{"HOME=/h"})
	var got []string
	for _, ps := range plan {
		got = append(got, ps.State+"|"+strings.Join(ps.Lines, "|")+"|"+ps.OnSuccess+"|"+ps.OnFailure+"|"+strings.Join(ps.Transitions, ","))
	}
	want := []string{
		`a|$ echo 'it'\''s' /h|b|bad|`,
		`b|$ echo '<states.a.output>'|ask||bad (when states.a.exit_code == 1)`,
		`ask|agent claude (model m)|prompt: hello it's|tools through awf's proxy: awf built-ins (Read, Write, Edit, Bash, Glob, Grep); plugin gh: issues|intent: split false, allowed variants ` + variants() + `, strict server validation true, declaration required false|loop|bad|`,
		`loop|for each item of it's|at most 2 items at once|body: inner|at most 3 iterations|at max_iterations with the condition unmet: bad|done||`,
		`done|ends the run: success|||`,
		`inner|$ echo {{.loop.item}}   # known only when the run gets here|env: WHO=it's|||`,
		`bad|ends the run: failure — because <states.a.stderr>|||`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("plan:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func variants() string {
	var vs []string
	for _, v := range workflow.DefaultIntent().Allow {
		vs = append(vs, string(v))
	}
	return strings.Join(vs, "/")
}
