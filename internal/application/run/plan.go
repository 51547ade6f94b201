package run

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

// PlanStep is one state of a dry run's plan: what it would do, rendered as far as it can be
// before anything runs, and where it goes next.
type PlanStep struct {
	State string `json:"state"`
	Kind  string `json:"kind"`
	// Lines describe the work: the command as the shell would receive it, the agent's provider,
	// prompt and proxy tools, a loop's items and body, and so on.
	Lines       []string `json:"lines"`
	OnSuccess   string   `json:"on_success,omitempty"`
	OnFailure   string   `json:"on_failure,omitempty"`
	Transitions []string `json:"transitions,omitempty"`
}

// Plan is what `awf run --dry-run` shows: every state reachable from the initial one, in the
// order a successful run meets them (on_success first, then the other exits), each rendered
// with the known inputs and environment. A state's output is not known before it runs, so a
// template reading one sees a placeholder (<states.NAME.output>); a template that still cannot
// be rendered (a loop variable, a state's JSON) is shown as written, with why. Nothing runs.
func Plan(wf *workflow.Workflow, inputs map[string]any, environ []string) []PlanStep {
	scope := NewScope(inputs, envMap(environ), WorkflowInfo{ID: "<run-id>", Name: wf.Name, Dir: workflowDir(wf)})
	for _, name := range slices.Sorted(maps.Keys(wf.States)) {
		ph := func(f string) string { return "<states." + name + "." + f + ">" }
		scope = scope.WithState(name, StateData{Output: ph("output"), Stderr: ph("stderr"), Status: ph("status")})
	}
	var plan []PlanStep
	seen := map[string]bool{}
	queue := []string{wf.Initial}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		st, ok := wf.States[name]
		if !ok || seen[name] {
			continue
		}
		seen[name] = true
		ps := PlanStep{State: name, Kind: string(st.Type), Lines: planLines(st, scope), OnSuccess: st.SuccessTarget(), OnFailure: st.OnFailure}
		next := []string{ps.OnSuccess}
		next = append(next, planChildren(st)...)
		for _, tr := range st.Transitions {
			when := "always"
			if tr.When != "" {
				when = "when " + tr.When
			}
			ps.Transitions = append(ps.Transitions, tr.Goto+" ("+when+")")
			next = append(next, tr.Goto)
		}
		next = append(next, st.OnFailure)
		queue = append(next, queue...) // depth first along on_success
		plan = append(plan, ps)
	}
	return plan
}

// planChildren are the states a loop or parallel state runs inside it.
func planChildren(st *workflow.State) []string {
	var out []string
	if l := st.Loop(); l != nil {
		out = append(out, l.Body...)
		out = append(out, l.OnComplete, l.OnExhausted)
	}
	if p := st.Parallel(); p != nil {
		out = append(out, p.Branches...)
	}
	return out
}

// planLines describes st's work for the plan.
func planLines(st *workflow.State, scope Scope) []string {
	shell := func(key, text string) string {
		return shown(renderShell(st.Name+"."+key, text, scope, st.KeyPos[key]))(text)
	}
	text := func(key, t string) string { return shown(render(st.Name+"."+key, t, scope, st.KeyPos[key]))(t) }
	switch st.Type {
	case workflow.StateCommand:
		c := st.Command()
		if c.ScriptFile != "" {
			return []string{"script file: " + text("script_file", c.ScriptFile) + " (its content is rendered when the run reads it)"}
		}
		lines := []string{"$ " + shell("command", c.Command)}
		if c.Dir != "" {
			lines = append(lines, "in: "+text("dir", c.Dir))
		}
		for _, e := range c.Env {
			lines = append(lines, "env: "+e.Name+"="+text("env."+e.Name, e.Value))
		}
		return lines
	case workflow.StateAgent:
		return agentPlan(st, text)
	case workflow.StateForEach:
		f := st.ForEach()
		items := fmt.Sprint(f.ItemList)
		if !f.IsList {
			items = text("items", f.Items)
		}
		lines := []string{"for each item of " + items}
		if f.MaxConcurrent > 1 {
			lines = append(lines, fmt.Sprintf("at most %d items at once", f.MaxConcurrent))
		}
		return append(lines, loopPlan(&f.LoopSpec)...)
	case workflow.StateWhile:
		return append([]string{"while " + st.While().While}, loopPlan(&st.While().LoopSpec)...)
	case workflow.StateParallel:
		p := st.Parallel()
		return []string{fmt.Sprintf("in parallel (%s, at most %d at once): %s", orDefault(string(p.Strategy), "all_succeed"), p.MaxConcurrent, strings.Join(p.Branches, ", "))}
	case workflow.StateCallWorkflow:
		return []string{"calls workflow " + st.Call().Workflow + keyValues(st.Call().Inputs)}
	case workflow.StateOperation:
		return []string{fmt.Sprintf("operation %s %v", st.Operation().Operation, st.Operation().Inputs)}
	case workflow.StateTerminal:
		t := st.Terminal()
		line := "ends the run: " + orDefault(string(t.Status), "success")
		if t.Message != "" {
			line += " — " + text("message", t.Message)
		}
		return []string{line}
	}
	return nil
}

func loopPlan(l *workflow.LoopSpec) []string {
	lines := []string{"body: " + strings.Join(l.Body, " → ")}
	if l.MaxIterations > 0 {
		lines = append(lines, fmt.Sprintf("at most %d iterations", l.MaxIterations))
	}
	if l.BreakWhen != "" {
		lines = append(lines, "break when "+l.BreakWhen)
	}
	if l.OnExhausted != "" {
		lines = append(lines, "at max_iterations with the condition unmet: "+l.OnExhausted)
	}
	return lines
}

// shown is the rendered text, or the template as written when it reads what only the run knows
// (a loop's item, a state's JSON).
func shown(out string, err error) func(string) string {
	return func(raw string) string {
		if err != nil {
			return raw + "   # known only when the run gets here"
		}
		return out
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func keyValues(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+m[k])
	}
	return " with " + strings.Join(parts, ", ")
}
