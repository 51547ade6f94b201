package run

import (
	"context"
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
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
	req.Dir, req.Env, req.Live = dir, x.env, liveLines(ctx, st.Name, scope)
	if req.Values, err = stepEnv(st, spec, scope, req.Values); err != nil {
		return Outcome{}, Stop(err)
	}
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

// stepEnv appends the step's `env:` to values, each value rendered from its template: set for
// this command only, after the inherited environment, so a value reaches the command as the
// variable's content and never as shell code. A value with a NUL byte, which no variable can
// hold, is refused.
func stepEnv(st *workflow.State, spec *workflow.CommandSpec, scope Scope, values []string) ([]string, error) {
	for _, e := range spec.Env {
		key := "env." + e.Name
		v, err := render(st.Name+"."+key, e.Value, scope, st.ValueAt(key))
		if err != nil {
			return nil, err
		}
		if strings.ContainsRune(v, 0) {
			return nil, fault.New(fault.UserTemplateExec, "env %s of step %q renders to a value with a NUL byte, which no environment variable can hold", e.Name, st.Name).
				At(st.ValueAt(key))
		}
		values = append(values, e.Name+"="+v)
	}
	return values, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
