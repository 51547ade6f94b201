package diagram

import (
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func wf(states ...*workflow.State) *workflow.Workflow {
	w := &workflow.Workflow{Name: "t", States: map[string]*workflow.State{}}
	for _, s := range states {
		w.States[s.Name] = s
		w.Order = append(w.Order, s.Name)
	}
	w.Initial = states[0].Name
	return w
}

func loop(max int, expr string, body ...string) workflow.LoopSpec {
	return workflow.LoopSpec{Body: body, MaxIterations: max, MaxIterationsExpr: expr}
}

func TestBuildKinds(t *testing.T) {
	proxy := &workflow.MCPProxy{Enable: true, PluginTools: []workflow.PluginTools{{Plugin: "n", Expose: []string{"a", "b"}}, {Plugin: "m", Expose: []string{"c"}}},
		Intent: workflow.IntentSettings{Allow: []tool.Variant{"read"}}}
	for _, c := range []struct {
		name   string
		state  *workflow.State
		kind   Kind
		detail string
	}{
		{"command", &workflow.State{Type: workflow.StateCommand}, KindCommand, "command"},
		{"agent", &workflow.State{Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: "gemini"}}, KindAgent, "agent: gemini"},
		{"agent proxy", &workflow.State{Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: "claude", MCPProxy: proxy}}, KindAgent,
			"agent: claude|proxy: 3 tools / allow [read]"},
		{"agent proxy off", &workflow.State{Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: "claude", MCPProxy: &workflow.MCPProxy{}}}, KindAgent, "agent: claude"},
		{"success", &workflow.State{Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusSuccess}}, KindSuccess, "success"},
		{"default status", &workflow.State{Type: workflow.StateTerminal}, KindSuccess, "success"},
		{"failure", &workflow.State{Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusFailure}}, KindFailure, "failure"},
		{"__inline_error_x", &workflow.State{Type: workflow.StateTerminal, Spec: &workflow.TerminalSpec{Status: workflow.StatusFailure}}, KindFailure, "inline on_failure"},
		{"parallel", &workflow.State{Type: workflow.StateParallel, Spec: &workflow.ParallelSpec{Strategy: workflow.BestEffort}}, KindParallel, "parallel (best_effort)"},
		{"parallel default", &workflow.State{Type: workflow.StateParallel}, KindParallel, "parallel (all_succeed)"},
		{"for_each", &workflow.State{Type: workflow.StateForEach, Spec: &workflow.ForEachSpec{LoopSpec: loop(4, "")}}, KindForEach, "for_each (max 4)"},
		{"for_each unbounded", &workflow.State{Type: workflow.StateForEach, Spec: &workflow.ForEachSpec{}}, KindForEach, "for_each"},
		{"while", &workflow.State{Type: workflow.StateWhile, Spec: &workflow.WhileSpec{LoopSpec: loop(0, "{{.inputs.n}}")}}, KindWhile, "while (max {{.inputs.n}})"},
		{"call", &workflow.State{Type: workflow.StateCallWorkflow, Spec: &workflow.CallSpec{Workflow: "child"}}, KindCall, "call_workflow: child"},
		{"operation", &workflow.State{Type: workflow.StateOperation, Spec: &workflow.OperationSpec{Operation: "http.request"}}, KindOperation, "operation: http.request"},
		{"unknown", &workflow.State{Type: "stpe"}, KindUnknown, `unknown type "stpe"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.state.Name = c.name
			g, err := Build(wf(c.state), Options{})
			if err != nil {
				t.Fatal(err)
			}
			n := g.Nodes[0]
			if n.Kind != c.kind || strings.Join(n.Detail, "|") != c.detail || n.Name != c.name || n.ID != "s0" || n.Highlight {
				t.Errorf("got %+v, want kind %s detail %q", n, c.kind, c.detail)
			}
			if g.StartID != "s0" || g.Direction != "TB" || len(g.Top) != 1 {
				t.Errorf("start %q direction %q top %v", g.StartID, g.Direction, g.Top)
			}
		})
	}
}

func edgesOf(g *Graph) []string {
	var out []string
	for _, e := range g.Edges {
		out = append(out, e.From+">"+e.To+" "+string(e.Kind)+" "+e.Label)
	}
	return out
}

func TestBuildEdgesAndClusters(t *testing.T) {
	w := wf(
		&workflow.State{Name: "a", Type: workflow.StateCommand, OnSuccess: "p", OnFailure: "ghost",
			Transitions: []workflow.Transition{{When: "x > 1", Goto: "end"}, {Goto: "p"}}},
		&workflow.State{Name: "p", Type: workflow.StateParallel, Spec: &workflow.ParallelSpec{Branches: []string{"l", "b1"}}, OnSuccess: "end"},
		&workflow.State{Name: "l", Type: workflow.StateWhile, Spec: &workflow.WhileSpec{LoopSpec: workflow.LoopSpec{Body: []string{"in"}, OnComplete: "end"}}, OnSuccess: "ignored"},
		&workflow.State{Name: "in", Type: workflow.StateCommand},
		&workflow.State{Name: "b1", Type: workflow.StateCommand},
		&workflow.State{Name: "end", Type: workflow.StateTerminal},
	)
	w.Order = w.Order[:5] // "end" is not in Order: drawn after the others, as hidden states are
	g, err := Build(w, Options{Direction: "LR", Highlight: "b1"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(edgesOf(g), "\n")
	want := strings.Join([]string{
		"s0>s5 when when x > 1", "s0>s1 when otherwise", "s0>s1 on_success on_success", "s0>s6 on_failure on_failure",
		"s1>s2 member branch", "s1>s4 member branch", "s1>s5 on_success on_success",
		"s2>s3 member body", "s2>s5 on_complete on_complete",
	}, "\n")
	if got != want {
		t.Errorf("edges:\n%s\nwant:\n%s", got, want)
	}
	if g.Nodes[5].Name != "end" || g.Nodes[6].Name != "ghost" || g.Nodes[6].Kind != KindMissing {
		t.Errorf("nodes %+v", g.Nodes)
	}
	if !g.Nodes[4].Highlight || g.Nodes[0].Highlight || g.Direction != "LR" {
		t.Errorf("highlight/direction: %+v %s", g.Nodes, g.Direction)
	}
	if strings.Join(g.Top, ",") != "s0,s1,s5,s6" {
		t.Errorf("top %v", g.Top)
	}
	if len(g.Clusters) != 1 {
		t.Fatalf("clusters %+v", g.Clusters)
	}
	c := g.Clusters[0]
	if c.Owner != "s1" || c.Label != "parallel p" || strings.Join(c.Nodes, ",") != "s2,s4" || len(c.Clusters) != 1 {
		t.Errorf("outer cluster %+v", c)
	}
	if in := c.Clusters[0]; in.Owner != "s2" || in.Label != "while l" || strings.Join(in.Nodes, ",") != "s3" || len(in.Clusters) != 0 {
		t.Errorf("inner cluster %+v", in)
	}
}

func TestBuildErrors(t *testing.T) {
	w := wf(&workflow.State{Name: "a", Type: workflow.StateCommand})
	if _, err := Build(w, Options{Highlight: "nope"}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown highlight: %v", err)
	}
	w.Initial = "missing"
	g, err := Build(w, Options{})
	if err != nil || g.StartID != "" {
		t.Errorf("unknown initial: %v %q", err, g.StartID)
	}
}

// TestBuildExhaustedEdge: a loop's on_exhausted is drawn as an edge of its own kind, beside
// on_complete.
func TestBuildExhaustedEdge(t *testing.T) {
	w := wf(
		&workflow.State{Name: "l", Type: workflow.StateWhile, Spec: &workflow.WhileSpec{LoopSpec: workflow.LoopSpec{Body: []string{"in"}, OnComplete: "ok", OnExhausted: "gave_up"}}},
		&workflow.State{Name: "in", Type: workflow.StateCommand},
		&workflow.State{Name: "ok", Type: workflow.StateTerminal},
		&workflow.State{Name: "gave_up", Type: workflow.StateTerminal},
	)
	g, err := Build(w, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(edgesOf(g), "\n")
	if !strings.Contains(got, "s0>s3 on_exhausted on_exhausted") || !strings.Contains(got, "s0>s2 on_complete on_complete") {
		t.Errorf("edges:\n%s", got)
	}
}
