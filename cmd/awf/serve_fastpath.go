package main

import "github.com/spf13/cobra"

// commandFor returns the command tree that runs args. `awf mcp-serve` is spawned by the agent
// CLI for every agent step, and the CLI waits for its tools/list before the model can start;
// building the ten other commands (flags, help texts, completions) is start-up work it never
// uses, so when mcp-serve is the first argument the tree holds the root, with the same global
// flags, and mcp-serve alone. Anything else, flags before the command included, gets the full
// tree, so parsing and errors are unchanged.
func commandFor(args []string) *cobra.Command {
	if len(args) > 0 && args[0] == "mcp-serve" {
		root := newBareRoot(&globalFlags{})
		root.AddCommand(newMCPServeCmd())
		return root
	}
	return newRootCmd()
}
