package main

import (
	"slices"
	"testing"
)

func TestCommandForBuildsOnlyWhatMCPServeNeeds(t *testing.T) {
	names := func(args []string) []string {
		var out []string
		for _, c := range commandFor(args).Commands() {
			out = append(out, c.Name())
		}
		return out
	}
	if got := names([]string{"mcp-serve", "--config", "x"}); !slices.Equal(got, []string{"mcp-serve"}) {
		t.Fatalf("mcp-serve tree: %v", got)
	}
	for _, args := range [][]string{{"run", "wf"}, {"--verbose", "mcp-serve"}, nil} {
		if got := names(args); len(got) < 10 || !slices.Contains(got, "mcp-serve") {
			t.Fatalf("%v: want the full tree, got %v", args, got)
		}
	}
	// The global flags still parse after mcp-serve, as in the full tree.
	root := commandFor([]string{"mcp-serve"})
	cmd, rest, err := root.Find([]string{"mcp-serve", "--verbose", "--root", "/x"})
	if err != nil || cmd.Name() != "mcp-serve" || cmd.ParseFlags(rest) != nil {
		t.Fatalf("flags after mcp-serve: %v %v %v", cmd, rest, err)
	}
}
