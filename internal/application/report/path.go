package report

import (
	"github.com/awf-dev/awf/internal/application/diagram"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// path lists the main-flow states the run went through, in order, ending with the state it
// reached or stopped in.
func path(r runrecord.Record) []string {
	var out []string
	for _, st := range r.Main() {
		out = append(out, st.Name)
	}
	if r.Current != "" && (len(out) == 0 || out[len(out)-1] != r.Current) {
		out = append(out, r.Current)
	}
	return out
}

// graph is the workflow's diagram with every state the run went through highlighted (the main
// flow, the loop bodies and branches that ran, and the terminal reached) and the transitions it
// took marked as taken.
func graph(w *workflow.Workflow, r runrecord.Record) *diagram.Graph {
	g, err := diagram.Build(w, diagram.Options{})
	if err != nil {
		return nil
	}
	visited := map[string]bool{}
	for _, st := range r.Steps {
		visited[st.Name] = true
	}
	if r.Current != "" {
		visited[r.Current] = true
	}
	names := map[string]string{}
	for i, n := range g.Nodes {
		names[n.ID] = n.Name
		if visited[n.Name] && n.Kind != diagram.KindMissing {
			g.Nodes[i].Highlight = true
		}
	}
	taken := map[[2]string]bool{}
	for _, st := range r.Main() {
		if st.Next != "" {
			taken[[2]string{st.Name, st.Next}] = true
		}
	}
	for i, e := range g.Edges {
		from, to := names[e.From], names[e.To]
		switch {
		case e.Kind == diagram.EdgeMember:
			g.Edges[i].Taken = visited[from] && visited[to]
		default:
			g.Edges[i].Taken = taken[[2]string{from, to}]
		}
	}
	return g
}
