// Package run executes a workflow's state machine: typed inputs, template interpolation,
// command and agent steps with timeouts, transitions, and terminal states. It knows nothing of
// shells, CLIs or files: those arrive through ports.
package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/application/stepproxy"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Run-time codes.
const (
	DefaultMaxSteps      = 10000
	outputKeepForDisplay = 4096
)

// Options configure a Runner.
type Options struct {
	Logger   *zap.Logger
	Tracer   trace.Tracer
	Commands ports.CommandRunner
	// Agents by provider name. A provider absent here fails its step with a clear error.
	Agents   map[string]ports.AgentProvider
	Observer Observer
	RunID    string
	// Dir is the working directory of steps without their own `dir`.
	Dir string
	// Environ is the environment visible to templates (.env) and commands; nil means os.Environ().
	Environ []string
	// MaxSteps bounds how many steps one run may execute, so a retry loop that never exits ends.
	MaxSteps int
	// Proxy prepares the MCP proxy of agent steps with mcp_proxy.enable; nil runs such steps
	// without one only if they do not ask for it.
	Proxy *stepproxy.Service
}

// Runner executes workflows. It is safe to reuse sequentially.
type Runner struct{ opts Options }

// New returns a Runner with defaults filled in.
func New(opts Options) *Runner {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.Tracer == nil {
		opts.Tracer = otel.Tracer("awf/run")
	}
	if opts.Observer == nil {
		opts.Observer = NopObserver{}
	}
	if opts.Environ == nil {
		opts.Environ = os.Environ()
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	return &Runner{opts: opts}
}

// Run executes wf with raw `name=value` inputs. The returned error is coded: user errors before
// anything ran (exit 1), a failure terminal (exit 2), an execution error (exit 3), an interrupt
// (exit 130). The Result is filled as far as the run got, also on error.
func (r *Runner) Run(ctx context.Context, wf *workflow.Workflow, given map[string]string) (*Result, error) {
	res := &Result{RunID: r.opts.RunID, Workflow: wf.Name, Status: "error"}
	inputs, ds := ResolveInputs(wf, given)
	if ds.HasErrors() {
		return res, inputError(ds)
	}
	start := time.Now()
	ctx, span := r.opts.Tracer.Start(ctx, "workflow.run "+wf.Name, trace.WithAttributes(
		attribute.String("awf.workflow", wf.Name),
		attribute.String("awf.run.id", r.opts.RunID),
	))
	defer span.End()
	log := r.opts.Logger.With(zap.String("run_id", r.opts.RunID), zap.String("workflow", wf.Name))
	log.Info("run started")

	err := r.loop(ctx, wf, inputs, res, log)
	res.Duration = time.Since(start)
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
		log.Warn("run ended", zap.String("status", res.Status), zap.Error(err), zap.Duration("duration", res.Duration))
	} else {
		log.Info("run ended", zap.String("status", res.Status), zap.Duration("duration", res.Duration))
	}
	span.SetAttributes(attribute.String("awf.run.status", res.Status))
	return res, err
}

func (r *Runner) loop(ctx context.Context, wf *workflow.Workflow, inputs map[string]any, res *Result, log *zap.Logger) error {
	states := map[string]any{}
	data := map[string]any{
		"inputs":   inputs,
		"states":   states,
		"env":      envMap(r.opts.Environ),
		"workflow": map[string]any{"ID": r.opts.RunID, "Name": wf.Name},
	}
	current := wf.Initial
	for n := 0; ; n++ {
		st, ok := wf.States[current]
		if !ok {
			return fault.New(fault.SystemRunUnknownState, "state %q does not exist (validation should have caught this)", current)
		}
		if st.Type == workflow.StateTerminal {
			res.Terminal = st.Name
			if st.Status == workflow.StatusFailure {
				res.Status = "failure"
				msg := fmt.Sprintf("workflow %q ended in failure state %q", wf.Name, st.Name)
				if st.Message != "" {
					if m, err := render(st.Name+".message", st.Message, data, st.KeyPos["message"]); err == nil {
						msg += ": " + m
					}
				}
				return fault.New(fault.WorkflowRunFailed, "%s", msg)
			}
			res.Status = "success"
			return nil
		}
		if n >= r.opts.MaxSteps {
			return fault.New(fault.ExecutionRunMaxSteps, "run executed %d steps without reaching a terminal state", n).
				WithHint("check the on_failure/on_success loop around %q", current)
		}
		if err := ctx.Err(); err != nil {
			res.Status = "interrupted"
			return interrupted(err)
		}
		r.opts.Observer.StepStarted(st.Name, string(st.Type))
		sr, err := r.step(ctx, wf, st, data, log)
		states[st.Name] = StateData{Output: sr.Output, Stderr: sr.Stderr, ExitCode: sr.ExitCode, Status: string(sr.Status)}
		if err != nil {
			// Errors (as opposed to failed steps) stop the run: bad templates, interrupts.
			sr.Status = StepFailure
			sr.Error = err.Error()
			res.Steps = append(res.Steps, sr)
			r.opts.Observer.StepFinished(sr)
			if fault.ExitCode(err) == fault.ExitInterrupted {
				res.Status = "interrupted"
			}
			return err
		}
		next := st.OnSuccess
		if sr.Status == StepFailure {
			next = st.OnFailure
		}
		sr.Next = next
		res.Steps = append(res.Steps, sr)
		r.opts.Observer.StepFinished(sr)
		if next == "" {
			// A failed step without on_failure ends the run as a failure of that step.
			res.Status = "failure"
			return fault.New(fault.WorkflowRunFailed, "step %q failed and has no on_failure transition: %s", st.Name, firstLine(sr.Error)).
				WithHint("add `on_failure: <state>` to %q to handle the failure", st.Name)
		}
		current = next
	}
}

// step runs one non-terminal state. It returns an error only for what must stop the whole run;
// an ordinary failure is a StepResult with StepFailure.
func (r *Runner) step(ctx context.Context, wf *workflow.Workflow, st *workflow.State, data map[string]any, log *zap.Logger) (StepResult, error) {
	sr := StepResult{Name: st.Name, Type: string(st.Type)}
	start := time.Now()
	ctx, span := r.opts.Tracer.Start(ctx, "step "+st.Name, trace.WithAttributes(
		attribute.String("awf.step", st.Name),
		attribute.String("awf.step.type", string(st.Type)),
		attribute.String("awf.run.id", r.opts.RunID),
	))
	defer span.End()
	slog := log.With(zap.String("step", st.Name), zap.String("type", string(st.Type)))

	stepCtx := ctx
	if st.Timeout > 0 {
		var cancel context.CancelFunc
		stepCtx, cancel = context.WithTimeoutCause(ctx, st.Timeout, errStepTimeout)
		defer cancel()
	}
	var err error
	switch st.Type {
	case workflow.StateAgent:
		err = r.agentStep(stepCtx, st, data, &sr)
	default:
		err = r.commandStep(stepCtx, st, data, &sr)
	}
	sr.Duration = time.Since(start)
	if err == nil && ctx.Err() != nil {
		err = interrupted(ctx.Err())
	}
	span.SetAttributes(attribute.String("awf.step.status", string(sr.Status)), attribute.Int("awf.step.exit_code", sr.ExitCode))
	switch {
	case err != nil:
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
		slog.Warn("step stopped the run", zap.Error(err), zap.Duration("duration", sr.Duration))
	case sr.Status == StepFailure:
		span.SetStatus(codes.Error, firstLine(sr.Error))
		slog.Warn("step failed", zap.Int("exit_code", sr.ExitCode), zap.String("error", sr.Error), zap.Duration("duration", sr.Duration))
	default:
		slog.Info("step succeeded", zap.Duration("duration", sr.Duration))
	}
	return sr, err
}

var errStepTimeout = errors.New("step timeout")

func (r *Runner) commandStep(ctx context.Context, st *workflow.State, data map[string]any, sr *StepResult) error {
	cmdText, err := render(st.Name+".command", st.Command, data, st.KeyPos["command"])
	if err != nil {
		return err
	}
	dir, err := r.dir(st, data)
	if err != nil {
		return err
	}
	out, err := r.opts.Commands.RunCommand(ctx, ports.CommandRequest{Command: cmdText, Dir: dir, Env: r.opts.Environ})
	sr.Output, sr.Stderr, sr.ExitCode = strings.TrimRight(out.Stdout, "\n"), out.Stderr, out.ExitCode
	sr.Status = StepSuccess
	if out.ExitCode != 0 {
		sr.Status = StepFailure
		sr.Error = fmt.Sprintf("exit code %d", out.ExitCode)
		if s := strings.TrimSpace(out.Stderr); s != "" {
			sr.Error += ": " + tail(s, outputKeepForDisplay)
		}
	}
	if err != nil {
		return r.stepError(ctx, st, err, sr)
	}
	return nil
}

func (r *Runner) agentStep(ctx context.Context, st *workflow.State, data map[string]any, sr *StepResult) error {
	provider, ok := r.opts.Agents[st.Provider]
	if !ok {
		sr.Status = StepFailure
		sr.ExitCode = -1
		sr.Error = fault.New(fault.ExecutionAgentProviderUnavailable, "provider %q not available: %s", st.Provider, availableProviders(r.opts.Agents)).Error()
		return nil
	}
	prompt := st.Prompt
	if st.PromptFile != "" {
		path, err := render(st.Name+".prompt_file", st.PromptFile, data, st.KeyPos["prompt_file"])
		if err != nil {
			return err
		}
		b, err := os.ReadFile(r.resolve(path))
		if err != nil {
			return fault.Wrap(err, fault.UserAgentPromptFile, "cannot read prompt_file of step %q", st.Name).At(st.KeyPos["prompt_file"])
		}
		prompt = string(b)
	}
	prompt, err := render(st.Name+".prompt", prompt, data, st.KeyPos["prompt"])
	if err != nil {
		return err
	}
	dir, err := r.dir(st, data)
	if err != nil {
		return err
	}
	req := ports.AgentRequest{
		RunID: r.opts.RunID, Step: st.Name, Provider: st.Provider, Prompt: prompt,
		Options: st.Options, Dir: dir, Timeout: st.Timeout, Proxy: st.MCPProxy,
	}
	var sess *stepproxy.Session
	if st.MCPProxy != nil && st.MCPProxy.Enable {
		if r.opts.Proxy == nil {
			return fault.New(fault.SystemMCPProxyUnwired, "step %q asks for the MCP proxy but this awf has none wired", st.Name)
		}
		if dir == "" {
			dir = "."
		}
		if sess, err = r.opts.Proxy.Prepare(ctx, stepproxy.Step{Name: st.Name, Provider: st.Provider, Proxy: st.MCPProxy, Options: st.Options, Dir: absDir(dir)}); err != nil {
			// Never run the agent without the tools the workflow promised it.
			return r.stepError(ctx, st, err, sr)
		}
		req.Tools, req.Attach = sess.Tools, sess.Attach
	}
	out, err := provider.Run(ctx, req)
	if sess != nil {
		summary, ferr := sess.Finish(context.WithoutCancel(ctx), err)
		sr.Tools = summary
		if err == nil {
			err = ferr
		}
	}
	if err != nil {
		return r.stepError(ctx, st, err, sr)
	}
	sr.Status, sr.Output = StepSuccess, out.Output
	return nil
}

func absDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// stepError sorts an error from a step into: interrupt (stops the run), timeout or execution
// failure (the step fails and on_failure is followed).
func (r *Runner) stepError(ctx context.Context, st *workflow.State, err error, sr *StepResult) error {
	if errors.Is(context.Cause(ctx), errStepTimeout) {
		sr.Status = StepFailure
		if sr.ExitCode == 0 {
			sr.ExitCode = -1
		}
		sr.Error = fault.New(fault.ExecutionStepTimeout, "step %q timed out after %s", st.Name, st.Timeout).Error()
		return nil
	}
	if ctx.Err() != nil {
		return interrupted(ctx.Err())
	}
	// Whatever its category, an error from the step's own work (a CLI, an endpoint, the proxy,
	// the loop guard) fails the step so the workflow can follow on_failure; only errors in the
	// workflow itself (templates, prompt files) stop the run, and those return before this.
	sr.Status = StepFailure
	if sr.ExitCode == 0 {
		sr.ExitCode = -1
	}
	sr.Error = err.Error()
	return nil
}

func (r *Runner) dir(st *workflow.State, data map[string]any) (string, error) {
	if st.Dir == "" {
		return r.opts.Dir, nil
	}
	d, err := render(st.Name+".dir", st.Dir, data, st.KeyPos["dir"])
	if err != nil {
		return "", err
	}
	return r.resolve(d), nil
}

func (r *Runner) resolve(p string) string {
	if strings.HasPrefix(p, "/") || r.opts.Dir == "" {
		return p
	}
	return r.opts.Dir + "/" + p
}

func interrupted(cause error) error {
	return fault.Wrap(cause, fault.InterruptRunSignal, "run interrupted")
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

func availableProviders(m map[string]ports.AgentProvider) string {
	if len(m) == 0 {
		return "no agent providers are available in this build yet"
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return "available providers: " + strings.Join(names, ", ")
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

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
