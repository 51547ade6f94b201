package diagram

import (
	"strings"
	"testing"

	app "github.com/awf-dev/awf/internal/application/diagram"
)

// A transition the run took (awf report) is drawn thicker; the others keep their style.
func TestDOTTakenEdge(t *testing.T) {
	g := &app.Graph{Nodes: []app.Node{{ID: "s0", Name: "a"}, {ID: "s1", Name: "b"}, {ID: "s2", Name: "c"}},
		Edges: []app.Edge{{From: "s0", To: "s1", Kind: app.EdgeSuccess, Label: "on_success", Taken: true},
			{From: "s0", To: "s2", Kind: app.EdgeFailure, Label: "on_failure"}}}
	out := DOT(g)
	var taken, other string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(l, "s0 -> s1"):
			taken = l
		case strings.Contains(l, "s0 -> s2"):
			other = l
		}
	}
	if !strings.Contains(taken, "penwidth=3") || strings.Contains(other, "penwidth") {
		t.Errorf("taken %q, other %q", taken, other)
	}
}
