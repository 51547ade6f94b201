package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/proxy"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
	"github.com/awf-dev/awf/internal/infrastructure/logging"
	"github.com/awf-dev/awf/internal/infrastructure/mcpserve"
	"github.com/awf-dev/awf/internal/infrastructure/promptfile"
	"github.com/awf-dev/awf/internal/infrastructure/shell"
	"github.com/awf-dev/awf/internal/infrastructure/telemetry"
	"github.com/awf-dev/awf/internal/infrastructure/tools/pluginadapter"
)

func newRunCmd(g *globalFlags) *cobra.Command {
	var (
		inputs []string
		format string
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
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			return runWorkflow(cmd.Context(), g, args[0], inputs, format, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringArrayVarP(&inputs, "input", "i", nil, "workflow input as name=value (repeatable)")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text (steps as they run) or json (a run summary)")
	return cmd
}

func runWorkflow(ctx context.Context, g *globalFlags, target string, rawInputs []string, format string, out, errOut io.Writer) error {
	root, err := g.projectRoot()
	if err != nil {
		return fault.Wrap(err, fault.SystemFSCwd, "cannot determine the project root")
	}
	// One plugin host for the whole run: validation asks the plugins for their operations, and the
	// agent steps' in-process routers reuse the same processes. (An mcp-serve subprocess starts
	// its own: plugins live and die with the process that serves them.)
	host := projectPluginHost(root, zap.NewNop())
	defer func() { _ = host.Close() }()
	rep, err := validationServiceWith(root, host).Validate(ctx, target)
	if err != nil {
		return err
	}
	for _, d := range rep.Diagnostics.Warnings() {
		fmt.Fprintln(errOut, d.String())
	}
	if !rep.Valid() {
		printValidationText(io.Discard, errOut, rep)
		return &exitError{code: fault.ExitUser}
	}
	given, ds := run.ParseInputFlags(rawInputs)
	if ds.HasErrors() {
		return fault.New(ds[0].Code, "%s", ds[0].Message).WithHint("%s", ds[0].Hint)
	}
	if _, ids := run.ResolveInputs(rep.Workflow, given); ids.HasErrors() {
		for _, d := range ids.Errors() {
			fmt.Fprintln(errOut, d.String())
		}
		return &exitError{code: fault.ExitUser}
	}

	runID := newRunID()
	runDir := filepath.Join(root, ".awf", "runs", runID)
	// Step results are already on the terminal through the observer; the console log is for
	// awf's own trouble unless -v asks for everything.
	level := zapcore.ErrorLevel
	if g.verbose {
		level = zapcore.DebugLevel
	}
	logger, closeLog, err := logging.New(logging.Options{Console: errOut, ConsoleLevel: level, File: filepath.Join(runDir, "run.log")})
	if err != nil {
		return fault.Wrap(err, fault.SystemFSRunDir, "cannot create the run directory %s", runDir)
	}
	defer func() { _ = closeLog() }()
	_, shutdown, err := telemetry.Setup(ctx, "awf")
	if err != nil {
		return fault.Wrap(err, fault.UserOTelConfig, "cannot set up tracing from OTEL_* variables").WithHint("check OTEL_TRACES_EXPORTER and OTEL_EXPORTER_OTLP_* values")
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = shutdown(sctx)
	}()

	tmp, err := os.MkdirTemp("", "awf-run-"+runID+"-")
	if err != nil {
		return fault.Wrap(err, fault.SystemFSTemp, "cannot create the run's private temp directory")
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	activityFile := filepath.Join(runDir, activitylog.FileName)
	proxySvc := &stepproxy.Service{
		Build: func(ctx context.Context, cfg proxy.ServeConfig) (*routing.Router, error) {
			deps := mcpserve.Deps{Logger: logger, Version: version, Providers: pluginadapter.Providers(host, cfg.PluginTools)}
			return mcpserve.Build(ctx, cfg, deps)
		},
		AwfPath:      selfPath(),
		RunID:        runID,
		TempDir:      tmp,
		ActivityFile: activityFile,
		LogFile:      filepath.Join(runDir, "run.log"),
		PluginsFile:  filepath.Join(root, ".awf", "plugins.yaml"),
		Activity:     activitylog.FileStore{Path: activityFile},
		Logger:       logger,
		InProcess:    inProcessProviders(),
	}

	var obs run.Observer = run.NopObserver{}
	if format == "text" {
		obs = &textObserver{out: out}
		fmt.Fprintf(out, "Running workflow '%s' (run %s)\n", rep.Workflow.Name, runID)
	}
	runner, err := run.New(run.Options{
		Logger:   logger,
		Tracer:   otel.Tracer("awf"),
		Commands: shell.Runner{},
		Agents:   agentProviders(logger),
		Prompts:  promptfile.Reader{},
		Proxy:    proxySvc,
		Observer: obs,
		RunID:    runID,
		Dir:      root,
		Environ:  os.Environ(),
	})
	if err != nil {
		return err
	}
	res, runErr := runner.Run(ctx, rep.Workflow, given)
	if format == "json" {
		printRunJSON(out, res, runErr, runDir)
	} else {
		printRunText(out, res, runErr)
	}
	if runErr != nil {
		if format == "text" {
			fmt.Fprintln(errOut, "awf: "+runErr.Error())
		}
		return &exitError{code: fault.ExitCode(runErr)}
	}
	return nil
}

func newRunID() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

type jsonStep struct {
	run.StepResult
	DurationMS int64 `json:"duration_ms"`
}

func printRunJSON(out io.Writer, res *run.Result, runErr error, runDir string) {
	steps := make([]jsonStep, 0, len(res.Steps))
	for _, s := range res.Steps {
		steps = append(steps, jsonStep{s, s.Duration.Milliseconds()})
	}
	doc := map[string]any{
		"run_id":      res.RunID,
		"workflow":    res.Workflow,
		"status":      res.Status,
		"terminal":    res.Terminal,
		"exit_code":   fault.ExitCode(runErr),
		"duration_ms": res.Duration.Milliseconds(),
		"steps":       steps,
		"run_dir":     runDir,
	}
	if runErr != nil {
		doc["error"] = map[string]string{"code": fault.CodeOf(runErr), "message": runErr.Error()}
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	_ = enc.Encode(doc)
	_ = os.Stdout.Sync()
}
