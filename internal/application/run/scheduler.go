package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/retry"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// scheduler walks a workflow's state machine. It owns what no single kind should: which state
// comes next, the step limit, cancellation, step timeouts, the step's span and log lines, and
// the events. Each state's work is its kind's Executor.
type scheduler struct {
	executors map[workflow.StateType]Executor
	maxSteps  int
	tracer    trace.Tracer
	runID     string
	events    Observer
	exprs     *exprCache
	wait      func(ctx context.Context, d time.Duration) error
	rand      func() float64
	hooks     *hookRunner
	// replay holds a resumed run's recorded sub-step results (resume.go); nil otherwise.
	replay *replayBook
}

// sleep waits d, or less when ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ending is how a walk ended: the run status, the terminal reached, and the run's error.
type ending struct {
	status   string
	terminal string
	err      error
	// state is the state the walk was at when it ended; scope what it had recorded by then.
	state string
	scope Scope
}

// walk runs wf from its initial state until a state ends the run or something stops it.
func (s *scheduler) walk(ctx context.Context, wf *workflow.Workflow, scope Scope, log *zap.Logger) ending {
	return s.walkFrom(ctx, wf, wf.Initial, scope, log)
}

// walkFrom is walk starting at state current instead of the initial one (a resumed run).
func (s *scheduler) walkFrom(ctx context.Context, wf *workflow.Workflow, current string, scope Scope, log *zap.Logger) (end ending) {
	defer func() { end.state, end.scope = current, scope }()
	for n := 0; ; n++ {
		st, ok := wf.States[current]
		if !ok {
			return ending{status: RunError, err: fault.New(fault.SystemRunUnknownState, "state %q does not exist (validation should have caught this)", current)}
		}
		x, err := executorFor(s.executors, st)
		if err != nil {
			return ending{status: RunError, err: err}
		}
		scope = scope.At(st.Name)
		x = s.bind(x, wf, log)
		if st.Ends() {
			return s.end(ctx, wf, st, x, scope)
		}
		if n >= s.maxSteps {
			return ending{status: RunError, err: fault.New(fault.ExecutionRunMaxSteps, "run executed %d steps without reaching a terminal state", n).
				WithHint("check the on_failure/on_success loop around %q", current)}
		}
		if err := ctx.Err(); err != nil {
			return ending{status: RunInterrupted, err: interrupted(err)}
		}
		s.events.Observe(StepStarted{Name: st.Name, Kind: string(st.Type)})
		sr, err := s.step(ctx, st, x, scope, log)
		if sr.after != nil {
			scope = *sr.after
		}
		scope = withStep(scope, sr)
		if err != nil {
			// Errors (as opposed to failed steps) stop the run: bad templates, interrupts.
			sr.Status, sr.Error = StepFailure, err.Error()
			s.events.Observe(StepFinished{Step: sr})
			if fault.ExitCode(err) == fault.ExitInterrupted {
				return ending{status: RunInterrupted, err: err}
			}
			return ending{status: RunError, err: err}
		}
		sr.Next, err = s.next(st, sr.Status, scope, log)
		if sr.jump != "" {
			sr.Next = sr.jump
		}
		if err != nil {
			s.events.Observe(StepFinished{Step: sr})
			return ending{status: RunError, err: err}
		}
		s.events.Observe(StepFinished{Step: sr})
		if sr.Next == "" {
			// A failed step without on_failure ends the run as a failure of that step.
			return ending{status: RunFailure, err: fault.New(fault.WorkflowRunFailed, "step %q failed and has no on_failure transition: %s", st.Name, firstLine(sr.Error)).
				WithHint("add `on_failure: <state>` to %q to handle the failure", st.Name)}
		}
		current = sr.Next
	}
}

// next is the state a step goes to: the first of its transitions whose `when` holds (or that
// has none), checked after success and failure alike, else on_success or on_failure by status.
// A `when` that cannot be evaluated on this path (it reads a state that has not run) does not
// hold, as in the reference awf; the log says why.
func (s *scheduler) next(st *workflow.State, status StepStatus, scope Scope, log *zap.Logger) (string, error) {
	var vars map[string]any
	for i, tr := range st.Transitions {
		if tr.When == "" {
			return tr.Goto, nil
		}
		if vars == nil {
			vars = scope.Data()
		}
		ok, err := s.exprs.holds(tr.When, vars)
		if err != nil {
			var ee *ports.ExprError
			if !errors.As(err, &ee) {
				return "", Stop(err)
			}
			log.Info("transition condition does not hold: it cannot be evaluated here",
				zap.String("step", st.Name), zap.Int("transition", i), zap.String("when", tr.When), zap.Error(err))
			continue
		}
		if ok {
			return tr.Goto, nil
		}
	}
	if status == StepFailure && !st.ContinuesOnError() {
		return st.OnFailure, nil
	}
	return st.SuccessTarget(), nil
}

// end runs a state that ends the run and turns its End into the run's ending.
func (s *scheduler) end(ctx context.Context, wf *workflow.Workflow, st *workflow.State, x Executor, scope Scope) ending {
	out, err := x.Execute(ctx, st, scope)
	if err == nil && out.End == nil {
		err = fault.New(fault.SystemInternalUnexpected, "the executor of %s state %q did not end the run", st.Type, st.Name)
	}
	if err != nil {
		return ending{status: RunError, err: err}
	}
	if !out.End.Failed {
		return ending{status: RunSuccess, terminal: st.Name}
	}
	msg := fmt.Sprintf("workflow %q ended in failure state %q", wf.Name, st.Name)
	if out.End.Message != "" {
		msg += ": " + out.End.Message
	}
	return ending{status: RunFailure, terminal: st.Name, err: fault.New(fault.WorkflowRunFailed, "%s", msg)}
}

// step runs one state that does not end the run, inside its span and under its timeout. It
// returns an error only for what must stop the whole run; an ordinary failure is a StepResult
// with StepFailure.
func (s *scheduler) step(ctx context.Context, st *workflow.State, x Executor, scope Scope, log *zap.Logger) (StepResult, error) {
	sr := StepResult{Name: st.Name, Type: string(st.Type)}
	start := time.Now()
	ctx, span := s.tracer.Start(ctx, "step "+st.Name, trace.WithAttributes(
		attribute.String("awf.step", st.Name),
		attribute.String("awf.step.type", string(st.Type)),
		attribute.String("awf.run.id", s.runID),
	))
	defer span.End()
	span.SetAttributes(flowAttrs(scope)...)
	slog := log.With(zap.String("step", st.Name), zap.String("type", string(st.Type)))

	s.stepHook(ctx, st, workflow.HookPre, scope, slog)
	err := s.attempts(ctx, st, x, scope, &sr, span, slog)
	if err == nil {
		s.stepHook(ctx, st, workflow.HookPost, withStep(scope, sr), slog)
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

// attempts runs the state until it succeeds or its retry policy gives up, each attempt under
// its own timeout. Each retry is an event, a log line and a span event.
func (s *scheduler) attempts(ctx context.Context, st *workflow.State, x Executor, scope Scope, sr *StepResult, span trace.Span, log *zap.Logger) error {
	var policy retry.Policy
	if st.Retry != nil {
		policy = *st.Retry
	}
	for n := 1; ; n++ {
		err := s.timed(ctx, st, x, scope, sr)
		if n > 1 {
			sr.Attempts = n
		}
		if err != nil || sr.Status != StepFailure || !policy.ShouldRetry(n, sr.ExitCode) || ctx.Err() != nil {
			return err
		}
		wait := policy.Wait(n, s.rand())
		s.events.Observe(StepRetrying{Name: st.Name, Attempt: n, Of: policy.Attempts(), Wait: wait, ExitCode: sr.ExitCode, Error: sr.Error})
		log.Info("step attempt failed; retrying", zap.Int("attempt", n), zap.Int("max_attempts", policy.Attempts()),
			zap.Duration("wait", wait), zap.Int("exit_code", sr.ExitCode), zap.String("error", sr.Error))
		span.AddEvent("retry", trace.WithAttributes(attribute.Int("awf.attempt", n), attribute.Int("awf.step.exit_code", sr.ExitCode),
			attribute.String("awf.retry.wait", wait.String())))
		if err := s.wait(ctx, wait); err != nil {
			return interrupted(err)
		}
	}
}

// timed runs one attempt under the step's timeout.
func (s *scheduler) timed(ctx context.Context, st *workflow.State, x Executor, scope Scope, sr *StepResult) error {
	if st.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, st.Timeout, errStepTimeout)
		defer cancel()
	}
	return s.attempt(ctx, st, x, scope, sr)
}

// attempt executes the state once and folds the Outcome into sr. Its error stops the run.
func (s *scheduler) attempt(ctx context.Context, st *workflow.State, x Executor, scope Scope, sr *StepResult) error {
	out, err := x.Execute(ctx, st, scope)
	sr.Status, sr.Output, sr.Stderr, sr.ExitCode, sr.Error, sr.Tools, sr.JSON, sr.Response = out.Status, out.Output, out.Stderr, out.ExitCode, out.Error, out.Tools, out.JSON, out.Response
	sr.Session = out.Session
	sr.jump, sr.after = out.Next, out.Scope
	if err == nil {
		return nil
	}
	if stop, ok := stopped(err); ok {
		return stop
	}
	return workError(ctx, st, err, sr)
}

var errStepTimeout = errors.New("step timeout")

// workError sorts an error from a step's own work into: interrupt (stops the run), timeout or
// execution failure (the step fails and on_failure is followed).
func workError(ctx context.Context, st *workflow.State, err error, sr *StepResult) error {
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
	// workflow itself (templates, prompt files) stop the run, and those are marked by Stop.
	sr.Status = StepFailure
	if sr.ExitCode == 0 {
		sr.ExitCode = -1
	}
	sr.Error = err.Error()
	return nil
}

func interrupted(cause error) error {
	return fault.Wrap(cause, fault.InterruptRunSignal, "run interrupted")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
