package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

type globalFlags struct {
	root    string
	verbose bool
}

func newRootCmd() *cobra.Command {
	g := &globalFlags{}
	root := newBareRoot(g)
	root.AddCommand(newValidateCmd(g), newRunCmd(g), newActivityCmd(g), newMCPServeCmd(), newCallCmd(g), newPluginsCmd(g),
		newStatusCmd(g), newHistoryCmd(g), newListCmd(g), newResumeCmd(g), newDiagramCmd(g), newReportCmd(g), newVersionCmd(), newCICmd(g), newInitCmd(g), newErrorCmd(), newServeCmd(g), newSchemaCmd())
	addCompletions(root, g)
	return root
}

// newBareRoot is the root command with its global flags and no subcommands.
func newBareRoot(g *globalFlags) *cobra.Command {
	root := &cobra.Command{
		Use:   "awf",
		Short: "Run YAML workflows of shell commands and AI coding agents, with every agent tool call seen and limited",
		Long: `awf runs YAML workflows whose steps are shell commands or AI coding agents (Claude Code,
Gemini CLI, Codex, OpenCode, any OpenAI-compatible endpoint). For an agent step, awf serves an
MCP proxy with its own Read, Write, Edit, Bash, Glob and Grep tools plus plugin tools, and routes
every call through one router that checks its intent and records it.`,
		Version:       currentBuild().Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&g.root, "root", "", "project root holding .awf/ (default: nearest parent of the current directory with .awf/, else the current directory)")
	root.PersistentFlags().BoolVarP(&g.verbose, "verbose", "v", false, "show debug logs on the terminal")
	root.SetOut(redactingWriter{w: os.Stdout, red: secrets()})
	root.SetErr(redactingWriter{w: os.Stderr, red: secrets()})
	return root
}

// projectRoot returns --root, or the nearest directory upward holding .awf, or the cwd.
func (g *globalFlags) projectRoot() (string, error) {
	if g.root != "" {
		return filepath.Abs(g.root)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := cwd; ; dir = filepath.Dir(dir) {
		if st, err := os.Stat(filepath.Join(dir, ".awf")); err == nil && st.IsDir() {
			return dir, nil
		}
		if dir == filepath.Dir(dir) {
			return cwd, nil
		}
	}
}

func isUsageError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "invalid argument", "flag needs an argument"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
