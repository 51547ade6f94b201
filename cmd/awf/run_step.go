package main

import (
	"github.com/spf13/cobra"

	"github.com/awf-dev/awf/internal/application/usecase"
)

// runStepFlags are the flags of `awf run` that run part of a workflow or pause it, as the
// reference awf has them: --step with --mock, --interactive and --breakpoint.
type runStepFlags struct {
	step        string
	mocks       []string
	interactive bool
	breakpoints []string
}

func (f *runStepFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&f.step, "step", "s", "", "run only this state (its exits end the run), with the results of the states it reads given by --mock")
	cmd.Flags().StringArrayVarP(&f.mocks, "mock", "m", nil, "with --step: a result of another state, states.<state>.<Output|ExitCode|Status|Stderr|Error>=value (repeatable)")
	cmd.Flags().BoolVar(&f.interactive, "interactive", false, "pause before each state and ask on the terminal: continue, abort, inspect or run to the end")
	cmd.Flags().StringArrayVarP(&f.breakpoints, "breakpoint", "b", nil, "pause before these states only (a name or a comma-separated list; repeatable)")
}

// request is the run request of these flags with the command's target, inputs and dry run.
func (f *runStepFlags) request(target string, inputs []string, dryRun bool) usecase.RunRequest {
	return usecase.RunRequest{Target: target, Inputs: inputs, DryRun: dryRun, Step: f.step, Mocks: f.mocks,
		Interactive: f.interactive, Breakpoints: f.breakpoints}
}
