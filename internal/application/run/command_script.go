package run

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// script reads a step's script_file: its path is a template, tried against the workflow
// file's directory first and the project root next (a path under {{.awf.scripts_dir}} is tried
// in the workflow's scripts/ directory first, the reference's local-before-global rule; `~/` is
// the user's home). A file that cannot be read stops the run, unless the step's context ended.
func (x commandExecutor) script(ctx context.Context, st *workflow.State, spec *workflow.CommandSpec, scope Scope) (string, error) {
	p, err := render(st.Name+".script_file", spec.ScriptFile, scope, st.KeyPos["script_file"])
	if err != nil {
		return "", Stop(err)
	}
	if x.scripts == nil {
		return "", Stop(fault.New(fault.SystemRunSetup, "step %q reads a script_file but this awf has no script reader wired", st.Name))
	}
	var first error
	for _, c := range x.scriptCandidates(p, scope) {
		text, err := x.scripts.ReadPrompt(ctx, c)
		if err == nil {
			return text, nil
		}
		if ctx.Err() != nil {
			return "", err
		}
		if first == nil {
			first = err
		}
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	e := fault.Wrap(first, fault.UserWorkflowScriptFile, "cannot read script_file of step %q", st.Name).At(st.ValueAt("script_file"))
	var fe *fault.Error
	if errors.As(first, &fe) {
		e.Message += ": " + fe.Message
		e.Hint = fe.Hint
	}
	if errors.Is(first, fs.ErrNotExist) {
		e.Hint = "a relative script_file is looked for next to the workflow file, then under the project root"
	}
	return "", Stop(e)
}

// scriptCandidates are the paths a script_file may name, in the order they are tried.
func (x commandExecutor) scriptCandidates(p string, scope Scope) []string {
	data := scope.Data()
	if home, _ := data["env"].(map[string]string)["HOME"]; strings.HasPrefix(p, "~/") && home != "" {
		p = path.Join(home, p[2:])
	}
	wfDir := scope.workflow.Dir
	var out []string
	if dirs, _ := data["awf"].(map[string]any); dirs != nil && wfDir != "" {
		for _, key := range []string{"scripts_dir", "prompts_dir"} {
			if d, _ := dirs[key].(string); d != "" && strings.HasPrefix(p, d+"/") {
				out = append(out, path.Join(wfDir, strings.TrimSuffix(key, "_dir"), strings.TrimPrefix(p, d+"/")))
			}
		}
	}
	if path.IsAbs(p) {
		return append(out, p)
	}
	if wfDir != "" {
		out = append(out, path.Join(wfDir, p))
	}
	if r := x.paths.resolve(p); len(out) == 0 || r != out[len(out)-1] {
		out = append(out, r)
	}
	return out
}
