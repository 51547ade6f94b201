package run

import (
	"slices"
	"time"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// StartFilesOptions are what StartFiles needs to find a run's files as the run finds them.
type StartFilesOptions struct {
	// Root is the project root (Options.Dir); Host and Environ are the run's.
	Root    string
	Host    Host
	Environ []string
	// Inputs are the run's inputs, for paths templated on them.
	Inputs map[string]any
	// Workflows loads the called workflows, as call_workflow states do.
	Workflows ports.WorkflowSource
}

// StartFiles lists the files a run of wf reads by name besides wf's own file: its script_files,
// its prompt_files and the workflows its call_workflow states call, with theirs, recursively.
// A resume compares them with the ones the run read (docs/guide/runs-and-resume.md), so an
// edited script or sub-workflow is noticed. Each entry is the paths tried for one reference,
// in the order the run tries them: the first that can be read is the file. A path that needs a
// step's output to render cannot be known at the start and is left out.
func StartFiles(wf *workflow.Workflow, o StartFilesOptions) [][]string {
	var out [][]string
	seen := map[string]bool{cleanFile(wf.File): true}
	var walk func(wf *workflow.Workflow, inputs map[string]any, depth int)
	walk = func(wf *workflow.Workflow, inputs map[string]any, depth int) {
		scope := NewScope(inputs, envMap(o.Environ), WorkflowInfo{Name: wf.Name, Dir: workflowDir(wf)}).withHost(o.Host, time.Time{}, nil)
		p := paths{root: o.Root}
		for _, name := range wf.Order {
			st := wf.States[name]
			if st == nil {
				continue
			}
			if c := st.Command(); c != nil && c.ScriptFile != "" {
				if f, err := render(st.Name+".script_file", c.ScriptFile, scope, st.KeyPos["script_file"]); err == nil {
					out = append(out, commandExecutor{paths: p}.scriptCandidates(f, scope))
				}
			}
			if a := st.Agent(); a != nil && a.PromptFile != "" {
				if f, err := render(st.Name+".prompt_file", a.PromptFile, scope, st.KeyPos["prompt_file"]); err == nil {
					out = append(out, []string{p.resolve(f)})
				}
			}
			if c := st.Call(); c != nil && o.Workflows != nil && depth <= workflow.MaxCallDepth {
				callee, _, err := o.Workflows.Callee(wf.File, c.Workflow)
				if err != nil || callee == nil || seen[cleanFile(callee.File)] {
					continue
				}
				seen[cleanFile(callee.File)] = true
				out = append(out, []string{callee.File})
				walk(callee, calleeInputs(st, c, scope), depth+1)
			}
		}
	}
	walk(wf, o.Inputs, 0)
	return slices.CompactFunc(out, slices.Equal)
}

// calleeInputs are the inputs a call passes that render from the caller's inputs alone.
func calleeInputs(st *workflow.State, c *workflow.CallSpec, scope Scope) map[string]any {
	in := map[string]any{}
	for _, k := range c.InputOrder {
		if v, err := render(st.Name+".inputs."+k, c.Inputs[k], scope, st.ValueAt("inputs."+k)); err == nil {
			in[k] = v
		}
	}
	return in
}
