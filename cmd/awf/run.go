package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/application/usecase"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/expr"
	"github.com/awf-dev/awf/internal/infrastructure/logging"
	"github.com/awf-dev/awf/internal/infrastructure/mcpserve"
	"github.com/awf-dev/awf/internal/infrastructure/operations/httpop"
	"github.com/awf-dev/awf/internal/infrastructure/osenv"
	"github.com/awf-dev/awf/internal/infrastructure/pathprobe"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
	"github.com/awf-dev/awf/internal/infrastructure/privatefs"
	"github.com/awf-dev/awf/internal/infrastructure/process"
	"github.com/awf-dev/awf/internal/infrastructure/promptfile"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
	"github.com/awf-dev/awf/internal/infrastructure/shell"
	"github.com/awf-dev/awf/internal/infrastructure/telemetry"
	"github.com/awf-dev/awf/internal/infrastructure/turns"
	"github.com/awf-dev/awf/internal/infrastructure/yamlrepo"
)

func newRunCmd(g *globalFlags) *cobra.Command {
	var (
		inputs []string
		format string
		dryRun bool
		report bool
		resume bool
		sarif  string
		output string
		step   runStepFlags
	)
	cmd := &cobra.Command{
		Use:   "run <name|path> [--input name=value ...]",
		Short: "Run a workflow",
		Long: `Run a workflow's state machine from its initial state to a terminal state.

Exit codes: 0 success, 1 user error (validation, inputs), 2 the workflow ended in a failure
state, 3 a process or endpoint failed, 4 awf itself failed, 130 interrupted (Ctrl+C).
Each run gets an id and a directory .awf/runs/<id>/ holding run.log (JSON) and activitylog.jsonl.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			view, err := newRunView(cmd, g, format, output)
			if err != nil {
				return err
			}
			err = startOrResume(resume)(cmd.Context(), g, step.request(args[0], inputs, dryRun), view)
			if sarif != "" && view.runID != "" {
				sarifAfterRun(cmd, g, view.runID, sarif)
			}
			if report && view.runID != "" {
				reportAfterRun(cmd, g, view.runID, format == "json")
			}
			return err
		},
	}
	cmd.Flags().StringArrayVarP(&inputs, "input", "i", nil, "workflow input as name=value (repeatable)")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text (steps as they run), json (a run summary) or jsonl (one JSON object per event, as it happens)")
	cmd.Flags().StringVarP(&output, "output", "o", outputStreaming, "how text shows step output: streaming (each line as it comes, [OUT]/[ERR], and each tool call), buffered (a step's output when it ends) or silent")
	cmd.Flags().BoolVar(&report, "report", false, "write the run's HTML report (.awf/runs/<id>/report.html) when it ends, whatever its status")
	cmd.Flags().StringVar(&sarif, "sarif", "", "write the run's refusals and sandbox denials as SARIF 2.1.0 to this file when it ends (for code scanning)")
	cmd.Flags().BoolVar(&resume, "resume-if-interrupted", false, "resume the newest interrupted or crashed run of this workflow with the same inputs, if there is one, instead of starting a new run (for rescheduled pods and retried CI jobs)")
	step.add(cmd)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "show the plan (each state, its command with values shown in place, for reading) and run nothing")
	return cmd
}

// runWorkflow wires the run use case to the project's adapters and runs it.
func runWorkflow(ctx context.Context, g *globalFlags, req usecase.RunRequest, view *runView) error {
	root, err := g.projectRoot()
	if err != nil {
		return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
	}
	// One plugin host for the whole run: validation asks the plugins for their operations, and the
	// agent steps' in-process routers reuse the same processes. (An mcp-serve subprocess starts
	// its own: plugins live and die with the process that serves them.)
	host := projectPluginHost(root, zap.NewNop())
	defer func() { _ = host.Close() }()
	uc := usecase.Run{RunPorts: runPorts(g, root, host, view.errOut), Root: root, View: view}
	// Someone can approve held calls (intent.ask) here, unless the pauser of --interactive or
	// --break reads the same terminal.
	if stdinIsTerminal() && !req.Interactive && len(req.Breakpoints) == 0 {
		var stop func()
		uc.NewRunID, stop = terminalApprovals(ctx, root, uc.NewRunID, os.Stdin, view.errOut)
		defer stop()
	}
	return reported(uc.Do(ctx, req))
}

// runPorts are the adapters of one run.
func runPorts(g *globalFlags, root string, host *plugins.Host, errOut io.Writer) usecase.RunPorts {
	maskPluginEnv(root) // before anything of the run is written
	// Step results are already on the terminal through the view; the console log is for awf's
	// own trouble unless -v asks for everything.
	level := zapcore.ErrorLevel
	if g.verbose {
		level = zapcore.DebugLevel
	}
	return usecase.RunPorts{
		Validator: validationServiceWith(root, host),
		NewRunID:  newRunID,
		OpenLog: func(file string) (*zap.Logger, func() error, error) {
			return logging.New(logging.Options{Console: errOut, ConsoleLevel: level, File: file, Redactor: secrets()})
		},
		StartTracing: func(ctx context.Context) (func(context.Context) error, error) {
			_, shutdown, err := telemetry.Setup(ctx, "awf", telemetry.WithRedactor(secrets()))
			return shutdown, err
		},
		Tracer:           otel.Tracer("awf"),
		Commands:         shell.Runner{},
		Prompts:          promptfile.Reader{},
		Turns:            &turns.Lines{In: os.Stdin, Out: errOut},
		Paths:            pathprobe.Probe{},
		Scripts:          promptfile.Files{Noun: "script file", Code: fault.UserWorkflowScriptFile},
		ReadFiles:        promptfile.Files{Noun: "file", Code: fault.UserTemplateReadFile},
		Host:             hostInfo(),
		Expressions:      expr.Compiler{},
		Agents:           agentProviders,
		Files:            privatefs.Files{},
		Env:              osenv.Env{},
		Processes:        process.Table{},
		Handoff:          mcpserve.Handoff{},
		Activity:         func(file string) ports.ActivitySource { return activitylog.FileStore{Path: file} },
		ActivityFileName: activitylog.FileName,
		Routers:          func(logger *zap.Logger) stepproxy.RouterFactory { return routerFactory(host, logger) },
		AwfPath:          selfPath(),
		SlimPath:         serveBinary(selfPath()),
		PluginCommands:   plugins.Commands,
		Redactor:         secrets(),
		InProcess:        inProcessProviders(),
		Approver:         fileApprover,
		Workflows:        yamlrepo.Repository{Root: root},
		Operations:       httpop.Runner{},
		Plugins:          host,
		PromptIn:         os.Stdin,
		PromptOut:        errOut,
		Runs:             runstore.Store{Root: root, ActivityFile: activitylog.FileName},
		PID:              os.Getpid(),
	}
}

// routerFactory builds a step's router in this process: the built-ins and the plugin tools of
// the project's plugin host.
func routerFactory(host *plugins.Host, logger *zap.Logger) stepproxy.RouterFactory {
	return func(ctx context.Context, spec toolset.Spec) (*routing.Router, error) {
		deps := mcpserve.Deps{Logger: logger, Version: version, Providers: stepPluginProviders(host, spec, logger), Redactor: secrets()}
		return mcpserve.Build(ctx, spec, deps)
	}
}

// reported turns a failure the use case already showed into a silent exit code.
func reported(err error) error {
	var r *usecase.Reported
	if errors.As(err, &r) {
		return &exitError{code: r.Code}
	}
	return err
}

func newRunID() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}
