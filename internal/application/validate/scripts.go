package validate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/shellsafe"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// ScriptCheck reads the script_file of each command step whose path is plain text (not a
// template), next to the workflow file first and under root next, as the run looks for it, and
// checks its content as the run will:
//
//   - USER.TEMPLATE.INTERPRETER: {{…}} in a script whose #! program is not a shell (python3,
//     node, …), which gets no template expansion; its inputs arrive as AWF_INPUT_<NAME>;
//   - USER.TEMPLATE.SHELL_PLACE: in a shell script, a {{…}} where no value can go (see
//     shellsafe), the same check as a `command`.
//
// A script that cannot be read is the run's to report: its path may depend on the run.
func ScriptCheck(src ports.PromptSource, root string) Check {
	return func(ctx context.Context, wf *workflow.Workflow) fault.Diagnostics {
		var ds fault.Diagnostics
		for _, name := range wf.Order {
			st := wf.States[name]
			if c := st.Command(); c != nil && c.ScriptFile != "" && !strings.Contains(c.ScriptFile, "{{") {
				if text, ok := readScript(ctx, src, wf, root, c.ScriptFile); ok {
					checkScript(&ds, st, c.ScriptFile, text)
				}
			}
		}
		return ds
	}
}

func readScript(ctx context.Context, src ports.PromptSource, wf *workflow.Workflow, root, p string) (string, bool) {
	var candidates []string
	switch {
	case filepath.IsAbs(p):
		candidates = []string{p}
	case wf.File != "":
		candidates = append(candidates, filepath.Join(filepath.Dir(wf.File), p))
	}
	if !filepath.IsAbs(p) && root != "" {
		candidates = append(candidates, filepath.Join(root, p))
	}
	for _, c := range candidates {
		if text, err := src.ReadPrompt(ctx, c); err == nil {
			return text, true
		}
	}
	return "", false
}

func checkScript(ds *fault.Diagnostics, st *workflow.State, path, text string) {
	pos := st.ValueAt("script_file")
	if prog := shellsafe.ShebangProgram(text); prog != "" && !shellsafe.IsShell(prog) {
		if workflow.IsTemplated(text) {
			ds.Errorf(pos, fault.UserTemplateInterpreter,
				fmt.Sprintf("read the inputs from the environment: input name is %s (os.environ[%q] in Python, process.env.%s in Node)",
					workflow.InputEnvName("name"), workflow.InputEnvName("name"), workflow.InputEnvName("name")),
				"script_file %s of state %q runs %s, not a shell: awf does not fill {{…}} in it, since no quoting makes a value data in another language", path, st.Name, prog)
		}
		return
	}
	_, places, _ := shellsafe.Check(text)
	for _, pe := range places {
		ds.Errorf(pos, fault.UserTemplateShellPlace, "move the {{ }} or rewrite the shell text around it",
			"line %d, column %d of script_file %s of state %q: %v", pe.Line, pe.Column, path, st.Name, pe.Err)
	}
}
