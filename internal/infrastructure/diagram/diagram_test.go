package diagram

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	app "github.com/awf-dev/awf/internal/application/diagram"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

func loadGraph(t *testing.T, path string, o app.Options) *app.Graph {
	t.Helper()
	w, ds, err := yamlrepo.Load(path)
	if err != nil || w == nil {
		t.Fatalf("load %s: %v %v", path, err, ds)
	}
	g, err := app.Build(w, o)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestMermaidGolden compares the Mermaid of the fixture with every kind to a file reviewed by
// eye; run with UPDATE_GOLDEN=1 to rewrite it after a deliberate change.
func TestMermaidGolden(t *testing.T) {
	g := loadGraph(t, "testdata/all-kinds.yaml", app.Options{Highlight: "fan"})
	got := Mermaid(g)
	golden := filepath.Join("testdata", "all-kinds.mmd")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("mermaid differs from %s:\n%s", golden, got)
	}
}

func TestMermaidStructure(t *testing.T) {
	got := Mermaid(loadGraph(t, "testdata/all-kinds.yaml", app.Options{Direction: "LR", Highlight: "ask"}))
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if lines[0] != "flowchart LR" {
		t.Errorf("first line %q", lines[0])
	}
	subgraphs, ends := 0, 0
	for _, l := range lines {
		switch strings.TrimSpace(l) {
		case "end":
			ends++
		default:
			if strings.HasPrefix(strings.TrimSpace(l), "subgraph ") {
				subgraphs++
			}
		}
	}
	if subgraphs != 3 || ends != 3 {
		t.Errorf("subgraphs %d, ends %d; want 3 (parallel fan, for_each each, nested while again)", subgraphs, ends)
	}
	for _, want := range []string{
		`s1(["ask<br/>agent: claude<br/>proxy: 2 tools / allow [read, write]"])`,
		`-->|"when states.ask.Output contains #34;ok#34;"|`,
		`-->|"otherwise"|`,
		`-->|"on_complete"|`,
		`-.->|"on_failure"|`,
		`[["sub<br/>call_workflow: other"]]`,
		`>"fetch<br/>operation: http.request"]`,
		`(("__inline_error_build<br/>inline on_failure"))`,
		"class s1 highlight",
		"class s10 success",
		"class s11 failure",
		"class s12 failure",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, got)
		}
	}
}
