package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/logging"
	"github.com/awf-dev/awf/internal/infrastructure/osenv"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
)

func newCallCmd(g *globalFlags) *cobra.Command {
	var (
		req    usecase.CallRequest
		strict bool
	)
	cmd := &cobra.Command{
		Use:   "call tool-read|tool-write|tool-destructive <tool>",
		Short: "Call one tool through awf's router, with the intent rule applied",
		Long: `Call one tool as an agent would, through the same router: the intent rule checks the variant
(tool-read, tool-write, tool-destructive) against the tool's annotations, the call is traced, logged
and recorded (awf activity list --run cli). With --workflow and --step the step's mcp_proxy
settings (plugins, intent) apply. Exit 0 on success, 1 when refused or the tool failed.`,
		Example: `  awf call tool-read Read --args '{"file_path":"README.md","limit":5}'
  awf call tool-destructive Bash --args '{"command":"go test ./..."}' --reason "run the tests"`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Kind, req.Tool = args[0], args[1]
			if cmd.Flags().Changed("strict") {
				req.Strict = &strict
			}
			return callTool(cmd, g, req)
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.Args, "args", "", "the tool's arguments as a JSON object")
	f.StringVar(&req.Reason, "reason", "", "why the call is made (recorded; at most 1000 characters)")
	f.StringVar(&req.Sensitivity, "sensitivity", "", "data sensitivity: public, internal, private or unknown")
	f.BoolVar(&strict, "strict", true, "strict server validation: refuse calls whose variant contradicts the tool's annotations")
	f.StringVar(&req.Workflow, "workflow", "", "take mcp_proxy settings from this workflow's --step")
	f.StringVar(&req.Step, "step", "", "the agent step whose mcp_proxy settings apply")
	return cmd
}

// callTool wires the call use case, makes the call and prints its result.
func callTool(cmd *cobra.Command, g *globalFlags, req usecase.CallRequest) error {
	root, err := g.projectRoot()
	if err != nil {
		return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
	}
	// One plugin host serves the step's validation and the call itself, so each plugin starts once.
	host := projectPluginHost(root, zap.NewNop())
	defer func() { _ = host.Close() }()
	runDir := filepath.Join(root, ".awf", "runs", usecase.CallRunID)
	build, closeLog := callRouter(host, runDir)
	defer closeLog()
	uc := usecase.Call{Validator: validationServiceWith(root, host), Root: root, Proxy: &stepproxy.Service{
		Build: build, RunID: usecase.CallRunID, ActivityFile: filepath.Join(runDir, activitylog.FileName),
		PluginsFile: filepath.Join(root, ".awf", "plugins.yaml"), Env: osenv.Env{},
	}}
	res, err := uc.Do(cmd.Context(), req)
	var invalid *usecase.InvalidWorkflowError
	if errors.As(err, &invalid) {
		printValidationText(cmd.OutOrStdout(), cmd.ErrOrStderr(), invalid.Report)
		return &exitError{code: fault.ExitUser}
	}
	if err != nil {
		return err
	}
	if res.IsError {
		fmt.Fprintln(cmd.ErrOrStderr(), res.JoinedText())
		return &exitError{code: fault.ExitUser}
	}
	fmt.Fprintln(cmd.OutOrStdout(), res.JoinedText())
	return nil
}

// callRouter builds the call's router over the project's plugin host, opening the log in runDir
// only when the call gets that far. The closer closes the log if it was opened.
func callRouter(host *plugins.Host, runDir string) (stepproxy.RouterFactory, func()) {
	closeLog := func() error { return nil }
	build := func(ctx context.Context, spec toolset.Spec) (*routing.Router, error) {
		logger, closer, err := logging.New(logging.Options{File: filepath.Join(runDir, "run.log"), Redactor: secrets()})
		if err != nil {
			return nil, fault.Wrap(err, fault.SystemFSRunDir, "cannot open the log in %s", runDir)
		}
		closeLog = closer
		return routerFactory(host, logger)(ctx, spec)
	}
	return build, func() { _ = closeLog() }
}
