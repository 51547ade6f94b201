package main

import (
	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/domain/fault"
)

func newResumeCmd(g *globalFlags) *cobra.Command {
	var (
		req    usecase.ResumeRequest
		format string
	)
	cmd := &cobra.Command{
		Use:   "resume <run-id> [--from current|previous|<state>] [--input name=value …] [--force]",
		Short: "Continue an interrupted, crashed or failed run without re-running its finished steps",
		Long: `Continue a run recorded in .awf/runs/<id>/state.json, in the same run id, with the
recorded inputs and the recorded outputs of the states that finished (they are not run again).
It starts at the state the run stopped in (--from current, the default), at the main-flow
state that ran before it (--from previous, run again), or at --from <state>. --input
name=value replaces a recorded input (checked as awf run checks it); the others keep their
recorded values.

A workflow file changed since the run is refused: resuming would silently run a different
workflow. --force resumes with the file as it is now (and records that copy).
Two resumes of one run at once are refused (a lock in the run's directory).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			req.ID = args[0]
			root, err := g.projectRoot()
			if err != nil {
				return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
			}
			host := projectPluginHost(root, zap.NewNop())
			defer func() { _ = host.Close() }()
			view := &runView{format: format, out: cmd.OutOrStdout(), errOut: cmd.ErrOrStderr()}
			uc := usecase.Run{RunPorts: runPorts(g, root, host, view.errOut), Root: root, View: view}
			return reported(uc.Resume(cmd.Context(), req))
		},
	}
	cmd.Flags().StringVar(&req.From, "from", "", "where to continue: current (the state the run stopped in), previous (the state before it) or a state's name")
	cmd.Flags().StringArrayVarP(&req.Inputs, "input", "i", nil, "replace a recorded input, name=value (repeatable)")
	cmd.Flags().BoolVar(&req.Force, "force", false, "resume even though the workflow file changed since the run")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}
