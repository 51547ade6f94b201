package run

import (
	"context"
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// outputKeepForDisplay bounds how much of a failed command's stderr goes into its error.
const outputKeepForDisplay = 4096

// commandExecutor runs command states through the shell port.
type commandExecutor struct {
	commands ports.CommandRunner
	env      []string
	paths    paths
	// scripts reads script_file content.
	scripts ports.PromptSource
}

// Execute renders the command and its directory, and runs it. A non-zero exit is a failed step.
func (x commandExecutor) Execute(ctx context.Context, st *workflow.State, scope Scope, _ Steps) (Outcome, error) {
	spec := st.Command()
	source, key := spec.Command, "command"
	if spec.ScriptFile != "" {
		s, err := x.script(ctx, st, spec, scope)
		if err != nil {
			return Outcome{}, err
		}
		source, key = s, "script_file"
	}
	req, err := commandRequest(st, key, source, scope)
	if err != nil {
		return Outcome{}, Stop(err)
	}
	dir, err := x.paths.stepDir(st, spec.Dir, scope)
	if err != nil {
		return Outcome{}, Stop(err)
	}
	req.Dir, req.Env = dir, x.env
	res, err := x.commands.RunCommand(ctx, req)
	out := Outcome{Status: StepSuccess, Output: strings.TrimRight(res.Stdout, "\n"), Stderr: res.Stderr, ExitCode: res.ExitCode}
	if res.ExitCode != 0 {
		out.Status = StepFailure
		out.Error = fmt.Sprintf("exit code %d", res.ExitCode)
		if s := strings.TrimSpace(res.Stderr); s != "" {
			out.Error += ": " + tail(s, outputKeepForDisplay)
		}
	}
	return out, err
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
