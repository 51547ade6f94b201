package main

import (
	"slices"
	"strings"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/awf-dev/awf/internal/infrastructure/runstore"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

// addCompletions gives the commands dynamic shell completion (`awf completion bash|zsh|…`):
// workflow names where a workflow is named, run ids where a run is, the workflow's input names
// after --input and its states after --from. Each reads the project as the command would
// (--root, else the nearest .awf/), and completes nothing when it cannot.
func addCompletions(root *cobra.Command, g *globalFlags) {
	for _, c := range root.Commands() {
		switch c.Name() {
		case "run", "validate", "diagram":
			c.ValidArgsFunction = firstArg(func(string) []string { return workflowNames(g) })
		case "status", "report":
			c.ValidArgsFunction = firstArg(func(string) []string { return runIDs(g) })
		case "resume":
			c.ValidArgsFunction = firstArg(func(string) []string { return runIDs(g) })
			_ = c.RegisterFlagCompletionFunc("from", func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
				return resumeStates(g, args), cobra.ShellCompDirectiveNoFileComp
			})
		}
		if c.Name() == "run" || c.Name() == "resume" {
			_ = c.RegisterFlagCompletionFunc("input", func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
				return inputNames(g, cmd.Name(), args), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
			})
		}
	}
}

// firstArg completes the first argument with list, and nothing after it.
func firstArg(list func(toComplete string) []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return list(toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// shellSafe keeps the words a shell can be given as they are: a name holding a control
// character (a newline would split the completion protocol's lines) is left out.
func shellSafe(words []string) []string {
	return slices.DeleteFunc(words, func(w string) bool { return strings.ContainsFunc(w, unicode.IsControl) || w == "" })
}

func workflowNames(g *globalFlags) []string {
	root, err := g.projectRoot()
	if err != nil {
		return nil
	}
	names, _ := yamlrepo.Repository{Root: root}.List()
	return shellSafe(names)
}

// runIDs are the project's runs, newest first, each with its workflow and status.
func runIDs(g *globalFlags) []string {
	root, err := g.projectRoot()
	if err != nil {
		return nil
	}
	recs, _ := runstore.Store{Root: root}.List()
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		if len(shellSafe([]string{r.ID, r.Workflow})) == 2 {
			out = append(out, r.ID+"\t"+r.Workflow+" "+r.Status)
		}
	}
	return out
}

// inputNames are name= for each input of the workflow a run names (run) or ran (resume).
func inputNames(g *globalFlags, cmd string, args []string) []string {
	if len(args) == 0 {
		return nil
	}
	root, err := g.projectRoot()
	if err != nil {
		return nil
	}
	target := args[0]
	if cmd == "resume" {
		rec, err := runstore.Store{Root: root}.Load(args[0])
		if err != nil {
			return nil
		}
		target = rec.File
	}
	wf, _, err := yamlrepo.Repository{Root: root}.Load(target)
	if err != nil || wf == nil {
		return nil
	}
	var out []string
	for _, in := range wf.Inputs {
		out = append(out, in.Name+"=")
	}
	return shellSafe(out)
}

// resumeStates are what resume --from takes for the run args name: current, previous and
// the states of its workflow.
func resumeStates(g *globalFlags, args []string) []string {
	out := []string{"current\twhere the run stopped", "previous\tthe state before it, run again"}
	if len(args) == 0 {
		return out
	}
	root, err := g.projectRoot()
	if err != nil {
		return out
	}
	rec, err := runstore.Store{Root: root}.Load(args[0])
	if err != nil {
		return out
	}
	wf, _, err := yamlrepo.Repository{Root: root}.Load(rec.File)
	if err != nil || wf == nil {
		return out
	}
	var states []string
	for name := range wf.States {
		states = append(states, name)
	}
	slices.Sort(states)
	return append(out, shellSafe(states)...)
}
