// Package run executes a workflow's state machine: typed inputs, template interpolation, one
// executor per kind of state (command, agent, loops, parallel, terminal, …), registered by kind,
// and a scheduler that owns transitions, timeouts, cancellation and the run's events. It knows nothing of shells, CLIs, files or the
// process environment: those arrive through ports and options.
package run

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/runinputs"
	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// DefaultMaxSteps bounds a run when Options.MaxSteps is not set.
const DefaultMaxSteps = 10000

// Options configure a Runner.
type Options struct {
	Logger   *zap.Logger
	Tracer   trace.Tracer
	Commands ports.CommandRunner
	// Agents by provider name. A provider absent here fails its step with a clear error.
	Agents map[string]ports.AgentProvider
	// Prompts reads the prompt_file of agent steps.
	Prompts ports.PromptSource
	// Turns gives `mode: conversation` steps the user's next messages; nil runs one turn each.
	Turns ports.TurnSource
	// Paths answers inputs declared with file_exists; Run without it refuses such inputs.
	Paths ports.PathProbe
	// Scripts reads the script_file of command steps; Files the files templates name with
	// readFile, confined to Dir.
	Scripts ports.PromptSource
	Files   ports.ConfinedFiles
	// Host is what .awf and .context show.
	Host Host
	// Expressions compiles the `when` of transitions; a workflow with one needs it.
	Expressions ports.ExprCompiler
	// Wait pauses between retry attempts and returns early with ctx's error; nil waits on a
	// timer. Tests pass one that records the waits instead of sleeping.
	Wait func(ctx context.Context, d time.Duration) error
	// Rand draws the jitter of retry waits, uniform in [0, 1); nil uses math/rand/v2.
	Rand func() float64
	// Observer receives the run's events as they happen.
	Observer Observer
	RunID    string
	// Dir is the working directory of steps without their own `dir`, and the directory relative
	// paths in steps are resolved against.
	Dir string
	// Environ is the environment visible to templates (.env) and commands, as KEY=value. It is
	// required: the engine never reads the process environment itself.
	Environ []string
	// MaxSteps bounds how many steps one run may execute, so a retry loop that never exits ends.
	MaxSteps int
	// SessionDir is a private directory that lives as long as the run, where CLI providers keep
	// the private homes of conversation steps' sessions; "" keeps none (such a CLI session then
	// cannot be continued).
	SessionDir string
	// Proxy prepares the MCP proxy of agent steps with mcp_proxy.enable; nil runs such steps
	// without one only if they do not ask for it.
	Proxy *stepproxy.Service
	// Workflows loads the workflows call_workflow states call; nil stops a run that reaches one.
	Workflows ports.WorkflowSource
	// Operations serves the built-in operations (http.request) and Plugins the operations of
	// the project's plugins, for operation states; nil fails a state that needs one.
	Operations ports.OperationRunner
	Plugins    ports.OperationProvider
	// Executors adds or replaces the executor of a kind of state; the built-in kinds have theirs.
	Executors map[workflow.StateType]Executor
}

// Runner executes workflows. It is safe to reuse sequentially.
type Runner struct {
	opts  Options
	sched *scheduler
}

// New returns a Runner with defaults filled in. It fails when Environ is nil or when a kind of
// state has no executor: a state awf cannot execute must never run as something else.
func New(opts Options) (*Runner, error) {
	return newRunner(opts, workflow.Kinds())
}

// newRunner is New with the kinds to cover given, so a test can add a kind without an executor.
func newRunner(opts Options, kinds []workflow.StateType) (*Runner, error) {
	if opts.Environ == nil {
		return nil, fault.New(fault.SystemRunSetup, "the run engine needs the environment (Options.Environ)")
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.Tracer == nil {
		opts.Tracer = otel.Tracer("awf/run")
	}
	if opts.Observer == nil {
		opts.Observer = NopObserver{}
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	p := paths{root: opts.Dir}
	exprs := &exprCache{compiler: opts.Expressions}
	executors := map[workflow.StateType]Executor{
		workflow.StateCommand:      commandExecutor{commands: opts.Commands, env: opts.Environ, paths: p, scripts: opts.Scripts},
		workflow.StateAgent:        agentExecutor{agents: opts.Agents, proxy: opts.Proxy, prompts: opts.Prompts, runID: opts.RunID, paths: p, turns: opts.Turns, tracer: opts.Tracer, sessionDir: opts.SessionDir},
		workflow.StateTerminal:     terminalExecutor{},
		workflow.StateParallel:     parallelExecutor{},
		workflow.StateForEach:      loopExecutor{exprs: exprs},
		workflow.StateWhile:        loopExecutor{exprs: exprs},
		workflow.StateCallWorkflow: callExecutor{source: opts.Workflows, env: envMap(opts.Environ)},
		workflow.StateOperation:    operationExecutor{builtins: opts.Operations, plugins: opts.Plugins},
	}
	for k, x := range opts.Executors {
		executors[k] = x
	}
	if err := checkExecutors(executors, kinds); err != nil {
		return nil, err
	}
	sched := &scheduler{executors: executors, maxSteps: opts.MaxSteps, tracer: opts.Tracer, runID: opts.RunID, exprs: exprs, wait: opts.Wait, rand: opts.Rand,
		hooks: &hookRunner{commands: opts.Commands, env: opts.Environ, dir: opts.Dir}}
	if sched.wait == nil {
		sched.wait = sleep
	}
	if sched.rand == nil {
		sched.rand = rand.Float64
	}
	return &Runner{opts: opts, sched: sched}, nil
}

// Run executes wf with raw `name=value` inputs. The returned error is coded: user errors before
// anything ran (exit 1), a failure terminal (exit 2), an execution error (exit 3), an interrupt
// (exit 130). The Result, built from the run's events, is filled as far as the run got, also on
// error.
func (r *Runner) Run(ctx context.Context, wf *workflow.Workflow, given map[string]string) (*Result, error) {
	inputs, ds := runinputs.InputResolver{Paths: r.opts.Paths, Root: r.opts.Dir}.Resolve(wf, runinputs.Singles(given))
	if ds.HasErrors() {
		b := &resultBuilder{}
		events := observers{b, r.opts.Observer}
		events.Observe(RunStarted{RunID: r.opts.RunID, Workflow: wf.Name})
		err := inputError(ds)
		events.Observe(RunFinished{Status: RunError, Err: err})
		return &b.res, err
	}
	return r.RunResolved(ctx, wf, inputs)
}

// RunResolved executes wf with inputs already resolved by ResolveInputs, for callers that
// checked them before the run existed (awf run reports input problems before it makes a run
// directory) and must not resolve them a second time.
func (r *Runner) RunResolved(ctx context.Context, wf *workflow.Workflow, inputs map[string]any) (*Result, error) {
	return r.runFrom(ctx, wf, inputs, resumePoint{state: wf.Initial})
}

// runFrom runs wf from at.state, with the results in at.done already recorded in its scope.
func (r *Runner) runFrom(ctx context.Context, wf *workflow.Workflow, inputs map[string]any, at resumePoint) (*Result, error) {
	b := &resultBuilder{}
	events := observers{b, r.opts.Observer}
	events.Observe(RunStarted{RunID: r.opts.RunID, Workflow: wf.Name})
	env := envMap(r.opts.Environ)
	if missing := workflow.MissingEnv(wf, env); len(missing) > 0 {
		err := fault.New(fault.UserEnvMissing, "workflow %q needs the environment variables %s, unset or empty here", wf.Name, strings.Join(missing, ", ")).
			WithHint("set them before the run, e.g. export %s=…", missing[0])
		events.Observe(RunFinished{Status: RunError, Err: err})
		return &b.res, err
	}
	start := time.Now()
	ctx, span := r.opts.Tracer.Start(ctx, "workflow.run "+wf.Name, trace.WithAttributes(
		attribute.String("awf.workflow", wf.Name),
		attribute.String("awf.run.id", r.opts.RunID),
	))
	defer span.End()
	log := r.opts.Logger.With(zap.String("run_id", r.opts.RunID), zap.String("workflow", wf.Name))
	log.Info("run started")

	scope := at.fill(NewScope(inputs, env, WorkflowInfo{ID: r.opts.RunID, Name: wf.Name, Dir: workflowDir(wf)}).withHost(r.opts.Host, start, r.readFile(ctx)))
	sched := *r.sched
	sched.events = &serialObserver{obs: events}
	sched.replay = at.book()
	end := ending{status: RunError, scope: scope}
	if end.err = sched.workflowStart(ctx, wf, scope, log); end.err == nil {
		wctx, cancel := runDeadline(ctx, wf)
		end = sched.walkFrom(withFrame(wctx, rootFrame(&sched, log, wf.Name, wf.File)), wf, at.state, scope, log)
		end = timedOut(wctx, wf, end)
		cancel()
		sched.workflowEnd(ctx, wf, end, end.scope, log)
	}
	duration := time.Since(start)
	if end.err != nil {
		span.RecordError(end.err)
		span.SetStatus(codes.Error, end.err.Error())
		log.Warn("run ended", zap.String("status", end.status), zap.Error(end.err), zap.Duration("duration", duration))
	} else {
		log.Info("run ended", zap.String("status", end.status), zap.Duration("duration", duration))
	}
	span.SetAttributes(attribute.String("awf.run.status", end.status))
	events.Observe(RunFinished{Status: end.status, Terminal: end.terminal, Duration: duration, Err: end.err})
	return &b.res, end.err
}

// errRunTimeout is the cause a run's context ends with when the workflow's timeout passes.
var errRunTimeout = errors.New("workflow timeout")

// runDeadline bounds ctx by the workflow's timeout, when it has one.
func runDeadline(ctx context.Context, wf *workflow.Workflow) (context.Context, context.CancelFunc) {
	if wf.Timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, wf.Timeout, errRunTimeout)
}

// timedOut turns the ending of a walk stopped by the workflow's timeout (seen by the steps as an
// interrupt, which stopped every process) into a failed run with its own code; any other ending
// is returned as it is.
func timedOut(ctx context.Context, wf *workflow.Workflow, end ending) ending {
	if end.status == RunSuccess || !errors.Is(context.Cause(ctx), errRunTimeout) {
		return end
	}
	end.status = RunFailure
	end.err = fault.New(fault.ExecutionRunTimeout, "workflow %q ran past its timeout of %s in state %q; every running step was stopped", wf.Name, wf.Timeout, end.state).
		WithHint("raise `timeout:` at the top of the workflow, or give the slow step a `timeout:` of its own and an on_failure")
	return end
}

func inputError(ds fault.Diagnostics) error {
	msgs := make([]string, 0, len(ds))
	for _, d := range ds.Errors() {
		m := d.Message
		if d.Hint != "" {
			m += " (" + d.Hint + ")"
		}
		msgs = append(msgs, m)
	}
	return &fault.Error{Code: ds.Errors()[0].Code, Message: strings.Join(msgs, "; ")}
}

func envMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}
