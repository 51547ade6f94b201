package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/proxy"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/logging"
	"github.com/awf-dev/awf/internal/infrastructure/mcpserve"
	"github.com/awf-dev/awf/internal/infrastructure/tools/pluginadapter"
)

// callRunID labels the activity of one-off `awf call` invocations; they share one file under
// .awf/runs/cli so `awf activity list --run cli` shows them.
const callRunID = "cli"

func newCallCmd(g *globalFlags) *cobra.Command {
	var (
		argsJSON, reason, sensitivity, wfName, stepName string
		strict                                          bool
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
			variant, ok := strings.CutPrefix(args[0], "tool-")
			if !ok || !tool.Variant(variant).Valid() {
				return fault.New(fault.UserCLIInvalidVariant, "unknown call kind %q", args[0]).WithHint("use tool-read, tool-write or tool-destructive")
			}
			if argsJSON == "" {
				argsJSON = "{}"
			}
			if !json.Valid([]byte(argsJSON)) {
				return fault.New(fault.UserCLIInvalidArgs, "--args is not valid JSON").WithHint(`pass a JSON object, e.g. --args '{"file_path":"README.md"}'`)
			}
			root, err := g.projectRoot()
			if err != nil {
				return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
			}
			// One plugin host serves the step's validation and the call itself, so each plugin
			// starts once.
			host := projectPluginHost(root, zap.NewNop())
			defer func() { _ = host.Close() }()
			runDir := filepath.Join(root, ".awf", "runs", callRunID)
			cfg := proxy.ServeConfig{RootDir: root, ActivityFile: filepath.Join(runDir, activitylog.FileName), RunID: callRunID, PluginsFile: filepath.Join(root, ".awf", "plugins.yaml")}
			settings := routing.DefaultIntentSettings()
			if wfName != "" || stepName != "" {
				st, err := stepFor(cmd, validationServiceWith(root, host), wfName, stepName)
				if err != nil {
					return err
				}
				cfg.Step = st.Name
				if a := st.Agent(); a != nil && a.MCPProxy != nil {
					p := a.MCPProxy
					cfg.InterceptBuiltins = &p.InterceptBuiltins
					for _, pt := range p.PluginTools {
						cfg.PluginTools = append(cfg.PluginTools, proxy.PluginTools{Plugin: pt.Plugin, Expose: pt.Expose})
					}
					settings = routing.IntentSettingsFromWorkflow(p.Intent)
				}
			}
			if cmd.Flags().Changed("strict") {
				settings.Strict = strict
			}
			logger, closeLog, err := logging.New(logging.Options{File: filepath.Join(runDir, "run.log")})
			if err != nil {
				return fault.Wrap(err, fault.SystemFSRunDir, "cannot open the log in %s", runDir)
			}
			defer func() { _ = closeLog() }()
			deps := mcpserve.Deps{Logger: logger, Version: version, Providers: pluginadapter.Providers(host, cfg.PluginTools)}
			router, err := mcpserve.Build(cmd.Context(), cfg, deps)
			if err != nil {
				return err
			}
			defer func() { _ = router.Close() }()
			exp := routing.NewExposure(router, settings)
			res := exp.Call(cmd.Context(), tool.Variant(variant), args[1], json.RawMessage(argsJSON), tool.Intent{DataSensitivity: sensitivity, Reason: reason})
			if res.IsError {
				fmt.Fprintln(cmd.ErrOrStderr(), res.JoinedText())
				return &exitError{code: fault.ExitUser}
			}
			fmt.Fprintln(cmd.OutOrStdout(), res.JoinedText())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&argsJSON, "args", "", "the tool's arguments as a JSON object")
	f.StringVar(&reason, "reason", "", "why the call is made (recorded; at most 1000 characters)")
	f.StringVar(&sensitivity, "sensitivity", "", "data sensitivity: public, internal, private or unknown")
	f.BoolVar(&strict, "strict", true, "strict server validation: refuse calls whose variant contradicts the tool's annotations")
	f.StringVar(&wfName, "workflow", "", "take mcp_proxy settings from this workflow's --step")
	f.StringVar(&stepName, "step", "", "the agent step whose mcp_proxy settings apply")
	return cmd
}

// stepFor loads a workflow and returns one of its states.
func stepFor(cmd *cobra.Command, svc validate.Service, wfName, stepName string) (*workflow.State, error) {
	if wfName == "" || stepName == "" {
		return nil, fault.New(fault.UserCLIMissingFlag, "--workflow and --step go together").WithHint("pass both, e.g. --workflow review --step review")
	}
	rep, err := svc.Validate(cmd.Context(), wfName)
	if err != nil {
		return nil, err
	}
	if !rep.Valid() {
		printValidationText(cmd.OutOrStdout(), cmd.ErrOrStderr(), rep)
		return nil, &exitError{code: fault.ExitUser}
	}
	st, ok := rep.Workflow.States[stepName]
	if !ok {
		return nil, fault.New(fault.UserCLIUnknownStep, "workflow %q has no step %q", rep.Name, stepName).WithHint("%s", workflow.DidYouMean(stepName, rep.Workflow.Order))
	}
	return st, nil
}
