// Package diagram turns a loaded workflow into a drawing-neutral graph (nodes, labelled edges and
// nested clusters) for `awf diagram`. It does no I/O: the DOT and Mermaid text and the Graphviz
// call live in infrastructure, so every renderer draws the same graph.
package diagram

import (
	"fmt"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Kind is how a node is drawn; each kind of state gets its own so the reader tells them apart.
type Kind string

// Node kinds.
const (
	KindCommand   Kind = "command"
	KindAgent     Kind = "agent"
	KindSuccess   Kind = "success"
	KindFailure   Kind = "failure"
	KindParallel  Kind = "parallel"
	KindForEach   Kind = "for_each"
	KindWhile     Kind = "while"
	KindCall      Kind = "call_workflow"
	KindOperation Kind = "operation"
	// KindUnknown is a state whose type is missing or unknown (a workflow with errors still draws).
	KindUnknown Kind = "unknown"
	// KindMissing is a target named by a transition but not declared.
	KindMissing Kind = "missing"
)

// EdgeKind says why an edge exists, so renderers style success, failure and membership apart.
type EdgeKind string

// Edge kinds.
const (
	EdgeSuccess  EdgeKind = "on_success"
	EdgeFailure  EdgeKind = "on_failure"
	EdgeComplete EdgeKind = "on_complete"
	// EdgeExhausted leads from a loop stopped at max_iterations with its condition unmet.
	EdgeExhausted EdgeKind = "on_exhausted"
	EdgeWhen      EdgeKind = "when"
	EdgeMember    EdgeKind = "member"
	EdgeStart     EdgeKind = "start"
)

// Node is one state. ID is a renderer-safe identifier (s0, s1, ...): state names are user text
// and only ever appear escaped inside labels.
type Node struct {
	ID        string
	Name      string
	Kind      Kind
	Detail    []string // lines under the name: provider, called workflow, operation, status
	Highlight bool
}

// Edge is one possible move between states, labelled as the workflow writes it.
type Edge struct {
	From, To string // node IDs
	Kind     EdgeKind
	Label    string
	// Taken marks a transition a run went through (awf report highlights the run's path).
	Taken bool
}

// Cluster groups the branches of a parallel state or the body of a loop; Clusters nest when a
// body state is itself a loop or parallel state.
type Cluster struct {
	ID       string
	Owner    string // node ID of the parallel or loop state
	Label    string
	Nodes    []string // node IDs directly inside
	Clusters []*Cluster
}

// Graph is the whole drawing. Top holds the node IDs outside every cluster.
type Graph struct {
	Name      string
	Direction string
	Nodes     []Node
	Edges     []Edge
	Top       []string
	Clusters  []*Cluster
	// StartID is the node the start marker points at; "" when the initial state is unknown.
	StartID string
}

// Options choose the layout direction (TB or LR) and a state to highlight.
type Options struct {
	Direction string
	Highlight string
}

// Build makes the graph of w. A highlight naming no state is an error, so a typo does not pass
// silently.
func Build(w *workflow.Workflow, o Options) (*Graph, error) {
	g := &Graph{Name: w.Name, Direction: o.Direction}
	if g.Direction == "" {
		g.Direction = "TB"
	}
	if o.Highlight != "" && w.States[o.Highlight] == nil {
		return nil, fmt.Errorf("--highlight names unknown state %q", o.Highlight)
	}
	b := builder{g: g, w: w, ids: map[string]string{}}
	names := orderedNames(w)
	for _, n := range names {
		b.node(n, w.States[n], n == o.Highlight)
	}
	if id, ok := b.ids[w.Initial]; ok {
		g.StartID = id
	}
	for _, n := range names {
		b.edges(w.States[n])
	}
	b.clusters(names)
	return g, nil
}

type builder struct {
	g   *Graph
	w   *workflow.Workflow
	ids map[string]string
}

func (b *builder) add(n Node) string {
	n.ID = fmt.Sprintf("s%d", len(b.g.Nodes))
	b.ids[n.Name] = n.ID
	b.g.Nodes = append(b.g.Nodes, n)
	return n.ID
}

func (b *builder) node(name string, s *workflow.State, hl bool) {
	kind, detail := describe(s)
	b.add(Node{Name: name, Kind: kind, Detail: detail, Highlight: hl})
}

// target returns the ID of a transition target, adding a "missing" node for an undeclared one.
func (b *builder) target(name string) string {
	if id, ok := b.ids[name]; ok {
		return id
	}
	return b.add(Node{Name: name, Kind: KindMissing, Detail: []string{"undeclared"}})
}

func (b *builder) edge(from *workflow.State, to string, k EdgeKind, label string) {
	if to == "" {
		return
	}
	b.g.Edges = append(b.g.Edges, Edge{From: b.ids[from.Name], To: b.target(to), Kind: k, Label: label})
}

func (b *builder) edges(s *workflow.State) {
	for _, m := range s.Members() {
		b.edge(s, m, EdgeMember, memberLabel(s))
	}
	for _, t := range s.Transitions {
		label := "when " + t.When
		if strings.TrimSpace(t.When) == "" {
			label = "otherwise"
		}
		b.edge(s, t.Goto, EdgeWhen, label)
	}
	if l := s.Loop(); l != nil && l.OnExhausted != "" {
		b.edge(s, l.OnExhausted, EdgeExhausted, "on_exhausted")
	}
	if l := s.Loop(); l != nil && l.OnComplete != "" {
		b.edge(s, l.OnComplete, EdgeComplete, "on_complete")
	} else {
		b.edge(s, s.OnSuccess, EdgeSuccess, "on_success")
	}
	b.edge(s, s.OnFailure, EdgeFailure, "on_failure")
}

func memberLabel(s *workflow.State) string {
	if s.Parallel() != nil {
		return "branch"
	}
	return "body"
}

// clusters nests each member under the loop or parallel state that runs it.
func (b *builder) clusters(names []string) {
	nest := workflow.NewNesting(b.w)
	byOwner := map[string]*Cluster{}
	cluster := func(owner string) *Cluster {
		if c := byOwner[owner]; c != nil {
			return c
		}
		s := b.w.States[owner]
		c := &Cluster{ID: fmt.Sprintf("c%d", len(byOwner)), Owner: b.ids[owner], Label: string(s.Type) + " " + owner}
		byOwner[owner] = c
		return c
	}
	for _, n := range names {
		if o := nest.Owner(n); o != "" {
			cluster(o).Nodes = append(cluster(o).Nodes, b.ids[n])
		}
	}
	for _, n := range names {
		c := byOwner[n]
		if c == nil {
			continue
		}
		if o := nest.Owner(n); o != "" && byOwner[o] != nil {
			byOwner[o].Clusters = append(byOwner[o].Clusters, c)
		} else {
			b.g.Clusters = append(b.g.Clusters, c)
		}
	}
	for _, nd := range b.g.Nodes {
		if nest.Owner(nd.Name) == "" || nd.Kind == KindMissing {
			b.g.Top = append(b.g.Top, nd.ID)
		}
	}
}

// orderedNames lists the states in file order, then any others (hidden inline failure
// terminals) by name.
func orderedNames(w *workflow.Workflow) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range w.Order {
		if w.States[n] != nil && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	var rest []string
	for n, s := range w.States {
		if s != nil && !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
