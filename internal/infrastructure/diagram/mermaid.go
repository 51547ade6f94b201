package diagram

import (
	"fmt"
	"strings"

	app "github.com/awf-dev/awf/internal/application/diagram"
)

// mermaidShape is the opening and closing bracket of each kind of node in a Mermaid flowchart.
var mermaidShape = map[app.Kind][2]string{
	app.KindCommand:   {"[", "]"},
	app.KindAgent:     {"([", "])"},
	app.KindSuccess:   {"((", "))"},
	app.KindFailure:   {"((", "))"},
	app.KindParallel:  {"{{", "}}"},
	app.KindForEach:   {"[/", "\\]"},
	app.KindWhile:     {"[/", "\\]"},
	app.KindCall:      {"[[", "]]"},
	app.KindOperation: {">", "]"},
	app.KindUnknown:   {"[", "]"},
	app.KindMissing:   {"[", "]"},
}

var mermaidArrow = map[app.EdgeKind]string{
	app.EdgeSuccess:   "-->",
	app.EdgeFailure:   "-.->",
	app.EdgeComplete:  "-->",
	app.EdgeExhausted: "-.->",
	app.EdgeWhen:      "-->",
	app.EdgeMember:    "-.->",
}

// mermaidClasses colour terminals by status, mark missing targets and the highlighted state.
const mermaidClasses = `  classDef success fill:#c8f0c8,stroke:#2e7d32
  classDef failure fill:#ffd0d0,stroke:#c62828
  classDef agent fill:#dbe9ff
  classDef missing stroke:#c62828,stroke-dasharray:4
  classDef highlight stroke:#ff6f00,stroke-width:4px
`

// Mermaid returns g as a Mermaid flowchart (it renders on GitHub in a ```mermaid block).
func Mermaid(g *app.Graph) string {
	var b strings.Builder
	dir := "TB"
	if g.Direction == "LR" {
		dir = "LR"
	}
	fmt.Fprintf(&b, "flowchart %s\n", dir)
	nodes := map[string]app.Node{}
	for _, n := range g.Nodes {
		nodes[n.ID] = n
	}
	for _, id := range g.Top {
		writeMermaidNode(&b, "  ", nodes[id])
	}
	for _, c := range g.Clusters {
		writeMermaidCluster(&b, "  ", c, nodes)
	}
	if g.StartID != "" {
		fmt.Fprintf(&b, "  start_((\" \")) --> %s\n", g.StartID)
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s %s|%s| %s\n", e.From, mermaidArrow[e.Kind], mermaidQuote(e.Label), e.To)
	}
	b.WriteString(mermaidClasses)
	for _, n := range g.Nodes {
		switch n.Kind {
		case app.KindSuccess, app.KindFailure, app.KindAgent, app.KindMissing:
			fmt.Fprintf(&b, "  class %s %s\n", n.ID, n.Kind)
		}
		if n.Highlight {
			fmt.Fprintf(&b, "  class %s highlight\n", n.ID)
		}
	}
	return b.String()
}

func writeMermaidNode(b *strings.Builder, indent string, n app.Node) {
	sh := mermaidShape[n.Kind]
	lines := append([]string{n.Name}, n.Detail...)
	fmt.Fprintf(b, "%s%s%s%s%s\n", indent, n.ID, sh[0], mermaidQuote(strings.Join(lines, "\n")), sh[1])
}

func writeMermaidCluster(b *strings.Builder, indent string, c *app.Cluster, nodes map[string]app.Node) {
	fmt.Fprintf(b, "%ssubgraph %s[%s]\n", indent, c.ID, mermaidQuote(c.Label))
	for _, id := range c.Nodes {
		writeMermaidNode(b, indent+"  ", nodes[id])
	}
	for _, sub := range c.Clusters {
		writeMermaidCluster(b, indent+"  ", sub, nodes)
	}
	fmt.Fprintf(b, "%send\n", indent)
}

// mermaidPlain are the signs a quoted label keeps as written: none of them can end the quoted
// string, start an entity (#) or HTML (<, >, &).
const mermaidPlain = " _.,:/=+-()[]!?*@$%^~'"

// mermaidQuote makes s a quoted Mermaid label shown as written: letters, digits, spaces and a
// few plain signs pass; every other character becomes a numeric entity (#34; for a quote), so
// quotes, brackets, pipes, arrows, `end` lines and HTML cannot close the label or inject markup.
// Line breaks become <br/>.
func mermaidQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString("<br/>")
		case r == '\r' || r == '\t':
			b.WriteByte(' ')
		case strings.ContainsRune(mermaidPlain, r) || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
		default:
			fmt.Fprintf(&b, "#%d;", r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
