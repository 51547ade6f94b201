// Package diagram writes the graph of `awf diagram` as Graphviz DOT or Mermaid text and turns DOT
// into SVG or PNG through the system's Graphviz. Every state name and expression is user text:
// it only ever appears escaped inside a quoted label, never as an identifier.
package diagram

import (
	"fmt"
	"strings"

	app "github.com/awf-dev/awf/internal/application/diagram"
)

// dotStyle is how each kind of node is drawn in DOT.
var dotStyle = map[app.Kind]string{
	app.KindCommand:   `shape=box, style="filled", fillcolor="#f5f5f5"`,
	app.KindAgent:     `shape=box, style="rounded,filled", fillcolor="#dbe9ff"`,
	app.KindSuccess:   `shape=doublecircle, style="filled", fillcolor="#c8f0c8", color="#2e7d32"`,
	app.KindFailure:   `shape=doublecircle, style="filled", fillcolor="#ffd0d0", color="#c62828"`,
	app.KindParallel:  `shape=hexagon, style="filled", fillcolor="#fff3c4"`,
	app.KindForEach:   `shape=invtrapezium, style="filled", fillcolor="#e8dcff"`,
	app.KindWhile:     `shape=invtrapezium, style="filled", fillcolor="#e8dcff"`,
	app.KindCall:      `shape=component, style="filled", fillcolor="#d9f2f2"`,
	app.KindOperation: `shape=cds, style="filled", fillcolor="#fde2c8"`,
	app.KindUnknown:   `shape=box, style="dashed"`,
	app.KindMissing:   `shape=box, style="dashed", color="#c62828"`,
}

var dotEdgeStyle = map[app.EdgeKind]string{
	app.EdgeSuccess:   `color="#2e7d32"`,
	app.EdgeFailure:   `color="#c62828", style="dashed"`,
	app.EdgeComplete:  `color="#2e7d32"`,
	app.EdgeExhausted: `color="#ef6c00", style="dashed"`,
	app.EdgeWhen:      `color="#1565c0"`,
	app.EdgeMember:    `color="#757575", style="dotted"`,
}

// DOT returns g as a Graphviz digraph.
func DOT(g *app.Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(g.Name))
	fmt.Fprintf(&b, "  rankdir=%s;\n  label=%s;\n  labelloc=t;\n  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n",
		dotDirection(g.Direction), dotQuote(g.Name))
	nodes := map[string]app.Node{}
	for _, n := range g.Nodes {
		nodes[n.ID] = n
	}
	for _, id := range g.Top {
		writeDOTNode(&b, "  ", nodes[id])
	}
	for _, c := range g.Clusters {
		writeDOTCluster(&b, "  ", c, nodes)
	}
	if g.StartID != "" {
		b.WriteString("  __start [shape=point, width=0.2, label=\"\"];\n")
		fmt.Fprintf(&b, "  __start -> %s;\n", g.StartID)
	}
	for _, e := range g.Edges {
		taken := ""
		if e.Taken {
			taken = `, penwidth=3`
		}
		fmt.Fprintf(&b, "  %s -> %s [label=%s, %s%s];\n", e.From, e.To, dotQuote(e.Label), dotEdgeStyle[e.Kind], taken)
	}
	b.WriteString("}\n")
	return b.String()
}

func dotDirection(d string) string {
	if d == "LR" {
		return "LR"
	}
	return "TB"
}

func writeDOTNode(b *strings.Builder, indent string, n app.Node) {
	label := dotQuote(strings.Join(append([]string{n.Name}, n.Detail...), "\n"))
	hl := ""
	if n.Highlight {
		hl = `, penwidth=3, color="#ff6f00", fontcolor="#ff6f00"`
	}
	fmt.Fprintf(b, "%s%s [label=%s, %s%s];\n", indent, n.ID, label, dotStyle[n.Kind], hl)
}

func writeDOTCluster(b *strings.Builder, indent string, c *app.Cluster, nodes map[string]app.Node) {
	fmt.Fprintf(b, "%ssubgraph cluster_%s {\n", indent, c.ID)
	fmt.Fprintf(b, "%s  label=%s;\n%s  style=\"rounded,dashed\";\n%s  color=\"#9e9e9e\";\n", indent, dotQuote(c.Label), indent, indent)
	for _, id := range c.Nodes {
		writeDOTNode(b, indent+"  ", nodes[id])
	}
	for _, sub := range c.Clusters {
		writeDOTCluster(b, indent+"  ", sub, nodes)
	}
	fmt.Fprintf(b, "%s}\n", indent)
}

// dotQuote makes s a DOT double-quoted string that Graphviz shows as written: backslashes are
// doubled (Graphviz reads \n, \l, \N... in labels as escapes), quotes escaped, line breaks become
// \n, and other control characters are dropped.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
