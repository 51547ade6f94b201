package usecase

import (
	"context"
	"io"
	"path/filepath"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/application/run"
	"github.com/awf-dev/awf/internal/application/runinputs"
	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// RunView shows a run as it goes: cmd/awf prints text or JSON through one.
type RunView interface {
	// Warnings shows the workflow's warnings before it runs.
	Warnings(ds fault.Diagnostics)
	// Invalid shows why the workflow cannot run.
	Invalid(rep validate.Report)
	// InputProblems shows the --input values that do not fit the workflow's inputs.
	InputProblems(ds fault.Diagnostics)
	// Started announces the run and returns the observer of its steps.
	Started(workflow, runID string) run.Observer
	// Finished shows the run's outcome; err is the run's error, if any.
	Finished(res *run.Result, err error, runDir string)
}

// RunPorts are the adapters a run needs; cmd/awf wires them.
type RunPorts struct {
	Validator Validator
	// NewRunID names a new run.
	NewRunID func() string
	// OpenLog opens the run's log (JSON lines in file, awf's own trouble on the terminal).
	OpenLog func(file string) (*zap.Logger, func() error, error)
	// StartTracing sets tracing up from the OTEL_* variables; the function it returns flushes.
	StartTracing func(ctx context.Context) (func(context.Context) error, error)
	Tracer       trace.Tracer
	Commands     ports.CommandRunner
	// Prompts reads agent steps' prompt_file, bounded and cancellable.
	Prompts ports.PromptSource
	// Turns reads the user's messages for `mode: conversation` steps (awf's stdin).
	Turns ports.TurnSource
	// Paths checks inputs declared with file_exists.
	Paths ports.PathProbe
	// Scripts reads command steps' script_file; Files the files templates name with readFile.
	Scripts   ports.PromptSource
	ReadFiles ports.ConfinedFiles
	// Host is what .awf and .context show.
	Host run.Host
	// Expressions compiles transitions' `when`.
	Expressions ports.ExprCompiler
	// Agents are the agent providers by name, logging to the run's logger.
	Agents    func(*zap.Logger) map[string]ports.AgentProvider
	Files     ports.PrivateFiles
	Env       ports.Environment
	Processes ports.Processes
	Handoff   ports.ToolsetHandoff
	// Activity reads the run's activity file back, for the steps' tool-call summaries.
	Activity func(file string) ports.ActivitySource
	// ActivityFileName is the activity file's name inside the run directory.
	ActivityFileName string
	// Routers builds the agent steps' routers, logging to the run's logger.
	Routers func(*zap.Logger) stepproxy.RouterFactory
	// AwfPath is the binary agent CLIs spawn as `awf mcp-serve`; InProcess names the providers
	// that call tools in-process instead.
	AwfPath   string
	InProcess map[string]bool
	// Approver makes the approver of an in-process step's held calls (stepproxy.Service.Approver).
	Approver func(spec toolset.Spec) routing.Approver
	// SlimPath is the slim awf-serve binary beside awf, or ""; PluginCommands resolves a
	// plugins.yaml's executables (see stepproxy.Service).
	SlimPath       string
	PluginCommands func(file string) []string
	// Redactor is the process's redactor, shared with the log, the spans and the view; the run
	// adds the variables its agent steps name in api_key_env. nil masks nothing.
	Redactor *redact.Redactor
	// Workflows loads the workflows call_workflow states call; Operations serves the built-in
	// operations and Plugins the plugins' operations of operation states.
	Workflows  ports.WorkflowSource
	Operations ports.OperationRunner
	Plugins    ports.OperationProvider
	// Runs keeps the runs' persisted state (nil: runs are not recorded, as in tests that do
	// not need it); PID is this process's id, recorded so a reader can tell a crashed run.
	Runs ports.RunStore
	PID  int
	// PromptIn and PromptOut are the terminal a paused run asks on (awf run --interactive,
	// --breakpoint): awf's stdin and stderr.
	PromptIn  io.Reader
	PromptOut io.Writer
}

// Run is `awf run`: validate a workflow and its inputs, then run it with a log, traces, a
// private temp dir and a tool proxy for its agent steps.
type Run struct {
	RunPorts
	// Root is the project root: .awf/ lives there and steps run there by default.
	Root string
	View RunView
	// pause is the run's pauser when the request asks to pause (Do sets it).
	pause run.Observer
}

// RunRequest is one `awf run` as typed.
type RunRequest struct {
	Target string
	// Inputs are the --input flags, name=value.
	Inputs []string
	// DryRun shows the plan and runs nothing (no run id, no directory, no process).
	DryRun bool
	// Step runs only this state, in a scope holding Mocks (states.X.Field=value), the
	// results of the states it reads (startStep).
	Step  string
	Mocks []string
	// Interactive pauses before every main-flow state, Breakpoints before the states they
	// name (comma-separated lists too), asking on PromptIn/PromptOut (pauser).
	Interactive bool
	Breakpoints []string
}

// tracingFlush bounds how long the run waits for its traces to be exported.
const tracingFlush = 5 * time.Second

// Do runs the workflow. Failures the view already showed come back as *Reported.
func (u Run) Do(ctx context.Context, req RunRequest) error {
	rep, err := u.Validator.Validate(ctx, req.Target)
	if err != nil {
		return err
	}
	u.View.Warnings(rep.Diagnostics.Warnings())
	if !rep.Valid() {
		u.View.Invalid(rep)
		return &Reported{Code: fault.ExitUser}
	}
	given, ds := runinputs.ParseInputFlags(req.Inputs)
	u.Redactor.AddGiven(given) // an input error quotes the value: masked like the value
	if ds.HasErrors() {
		return fault.New(ds[0].Code, "%s", ds[0].Message).WithHint("%s", ds[0].Hint)
	}
	// The inputs are checked before the run gets an id and a directory, so a typo leaves nothing
	// behind; the engine resolves the same values when it runs.
	inputs, ids := runinputs.InputResolver{Paths: u.Paths, Root: u.Root}.Resolve(rep.Workflow, given)
	if req.DryRun {
		return u.dryRun(rep, inputs, ids)
	}
	if ids.HasErrors() {
		u.View.InputProblems(ids.Errors())
		return &Reported{Code: fault.ExitUser}
	}
	if len(req.Mocks) > 0 && req.Step == "" {
		return fault.New(fault.UserCLIMissingFlag, "--mock needs --step").WithHint("--step <state> runs one state; --mock gives it the results of the states it reads")
	}
	if req.Interactive || len(req.Breakpoints) > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		p, err := newPauser(rep.Workflow, u.PromptIn, u.PromptOut, req.Interactive, req.Breakpoints, cancel)
		if err != nil {
			return err
		}
		u.pause = p
	}
	if req.Step != "" {
		return u.startStep(ctx, rep, inputs, req.Step, req.Mocks)
	}
	return u.start(ctx, rep, inputs)
}

// start sets the run's record, log, tracing and temp dir up, runs the workflow and shows the
// outcome.
func (u Run) start(ctx context.Context, rep validate.Report, inputs map[string]any) error {
	u.mask(rep.Workflow, inputs)
	runID := u.NewRunID()
	rec := u.newRecord(runID, rep.Workflow, inputs)
	return u.execute(ctx, rep.Workflow, rec, func(r *run.Runner) (*run.Result, error) {
		return r.RunResolved(ctx, rep.Workflow, inputs)
	})
}

// mask adds the run's secrets to the redactor: the variables its agent steps name in
// api_key_env, the inputs named like secrets (api_key, db_password; any type) and, for a
// resumed run, the mask set its record kept, so what the run masked stays masked with its
// variables unset.
func (u Run) mask(wf *workflow.Workflow, inputs map[string]any, kept ...string) {
	u.Redactor.AddNames(wf.KeyVariables()...)
	u.Redactor.AddInputs(inputs)
	u.Redactor.AddMasks(kept...)
}

// execute runs one new or resumed run: rec is its record so far, do starts the engine.
func (u Run) execute(ctx context.Context, wf *workflow.Workflow, rec runrecord.Record, do func(*run.Runner) (*run.Result, error)) error {
	runID := rec.ID
	runDir := filepath.Join(u.Root, ".awf", "runs", runID)
	logFile := filepath.Join(runDir, "run.log")
	logger, closeLog, err := u.OpenLog(logFile)
	if err != nil {
		return fault.Wrap(err, fault.SystemFSRunDir, "cannot create the run directory %s", runDir)
	}
	defer func() { _ = closeLog() }()
	shutdown, err := u.StartTracing(ctx)
	if err != nil {
		return fault.Wrap(err, fault.UserOTelConfig, "cannot set up tracing from OTEL_* variables").WithHint("check OTEL_TRACES_EXPORTER and OTEL_EXPORTER_OTLP_* values")
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), tracingFlush)
		defer cancel()
		_ = shutdown(sctx)
	}()
	tmp, err := u.Files.MakeDir("", "awf-run-"+runID+"-")
	if err != nil {
		return fault.Wrap(err, fault.SystemFSTemp, "cannot create the run's private temp directory")
	}
	defer func() { _ = u.Files.RemoveAll(tmp) }()
	obs := fanout{u.View.Started(wf.Name, runID)}
	if u.pause != nil {
		obs = append(obs, u.pause) // after the view: the step's line shows, then the question
	}
	if u.Runs != nil {
		pe := newPersister(u.Runs, rec, logger)
		pe.red = u.Redactor
		pe.keepRecord()
		obs = append(obs, pe)
	}
	runner, err := run.New(u.options(runID, runDir, tmp, logger, obs))
	if err != nil {
		return err
	}
	res, runErr := do(runner)
	u.View.Finished(res, runErr, runDir)
	if runErr != nil {
		return &Reported{Code: fault.ExitCode(runErr)}
	}
	return nil
}

// options are the engine's options for run runID.
func (u Run) options(runID, runDir, tmp string, logger *zap.Logger, obs run.Observer) run.Options {
	activityFile := filepath.Join(runDir, u.ActivityFileName)
	proxySvc := &stepproxy.Service{
		Build:          u.Routers(logger),
		AwfPath:        u.AwfPath,
		SlimPath:       u.SlimPath,
		PluginCommands: u.PluginCommands,
		RunID:          runID,
		TempDir:        tmp,
		ActivityFile:   activityFile,
		LogFile:        filepath.Join(runDir, "run.log"),
		PluginsFile:    filepath.Join(u.Root, ".awf", "plugins.yaml"),
		Activity:       u.Activity(activityFile),
		Logger:         logger,
		InProcess:      u.InProcess,
		Approver:       u.Approver,
		Files:          u.Files,
		Handoff:        u.Handoff,
		Processes:      u.Processes,
		Env:            u.Env,
	}
	return run.Options{
		Logger:      logger,
		Tracer:      u.Tracer,
		Commands:    u.commands(),
		Agents:      u.Agents(logger),
		Prompts:     u.Prompts,
		Turns:       u.Turns,
		Scripts:     u.Scripts,
		Files:       u.ReadFiles,
		Host:        u.Host,
		Expressions: u.Expressions,
		Environ:     u.Env.Environ(),
		Proxy:       proxySvc,
		SessionDir:  filepath.Join(tmp, "sessions"),
		Observer:    obs,
		RunID:       runID,
		Dir:         u.Root,
		Workflows:   u.Workflows,
		Operations:  u.Operations,
		Plugins:     u.Plugins,
	}
}

// commands is the run's command runner; a run that can pause gets one that starts nothing
// once the run was aborted (startGuard).
func (u Run) commands() ports.CommandRunner {
	if u.pause == nil || u.Commands == nil {
		return u.Commands
	}
	return startGuard{u.Commands}
}

// newRecord starts the persisted record of a new run, with a copy of the workflow file as loaded.
func (u Run) newRecord(runID string, wf *workflow.Workflow, inputs map[string]any) runrecord.Record {
	now := time.Now()
	rec := runrecord.Record{Version: runrecord.Version, ID: runID, Workflow: wf.Name, File: wf.File, Inputs: inputs,
		Status: runrecord.Running, PID: u.PID, Started: now, Updated: now, Current: wf.Initial, Steps: []runrecord.Step{}}
	if u.Runs != nil && wf.File != "" {
		if src, err := u.Runs.ReadSource(wf.File); err == nil {
			rec.Source, rec.SourceHash = string(src), runrecord.Hash(src)
		}
		rec.Files = u.startFiles(wf, inputs)
	}
	return rec
}

// fanout passes each event to several observers, in order.
type fanout []run.Observer

func (f fanout) Observe(e run.Event) {
	for _, o := range f {
		o.Observe(e)
	}
}
