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
	m := &members{s: s, wf: wf, log: log}
	for n := 0; ; n++ {
		v, err := m.visitOf(current)
		if err != nil {
			return ending{status: RunError, err: err}
		}
		scope = scope.At(current)
		if v.st.Ends() {
			return s.end(ctx, v, scope)
		}
		if n >= s.maxSteps {
			return ending{status: RunError, err: fault.New(fault.ExecutionRunMaxSteps, "run executed %d steps without reaching a terminal state", n).
				WithHint("check the on_failure/on_success loop around %q", current)}
		}
		if err := ctx.Err(); err != nil {
			return ending{status: RunInterrupted, err: interrupted(err)}
		}
		s.events.Observe(StepStarted{Name: current, Kind: string(v.st.Type)})
		sd, err := s.step(ctx, v, scope)
		var sr StepResult
		sr, scope, err = s.finish(v, sd, scope, err)
		if err != nil {
			// Errors (as opposed to failed steps) stop the run: bad templates, interrupts.
			if fault.ExitCode(err) == fault.ExitInterrupted {
				return ending{status: RunInterrupted, err: err}
			}
			return ending{status: RunError, err: err}
		}
		if sr.Next == "" {
			// A failed step without on_failure ends the run as a failure of that step.
			return ending{status: RunFailure, err: fault.New(fault.WorkflowRunFailed, "step %q failed and has no on_failure transition: %s", current, firstLine(sr.Error)).
				WithHint("add `on_failure: <state>` to %q to handle the failure", current)}
		}
		current = sr.Next
	}
}

// finish records a state run as a step in scope (the scope the state left behind, if it left
// one), resolves where the run goes next when the visit follows transitions, and reports the
// step. err, from running it, stops the run: the step is reported failed by it.
func (s *scheduler) finish(v visit, sd stepped, scope Scope, err error) (StepResult, Scope, error) {
	if sd.left != nil {
		scope = *sd.left
	}
	scope = withStep(scope, sd.sr)
	if err != nil {
		sd.sr.Status, sd.sr.Error = StepFailure, err.Error()
		s.events.Observe(StepFinished{Step: sd.sr})
		return sd.sr, scope, err
	}
	if v.follow {
		sd.sr.Next, err = s.follow(v, sd, scope)
	}
	s.events.Observe(StepFinished{Step: sd.sr})
	return sd.sr, scope, err
}

// follow is where the run goes after v's state ran as sd: where the state sends it, else where
// its transitions lead. Those are evaluated either way, so an error in them is never hidden.
func (s *scheduler) follow(v visit, sd stepped, scope Scope) (string, error) {
	next, err := s.next(v.st, sd.sr.Status, scope, v.m.log)
	to, terr := sd.then.after(v.st, next)
	if err == nil {
		err = terr
	}
	return to, err
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
func (s *scheduler) end(ctx context.Context, v visit, scope Scope) ending {
	out, err := v.x.Execute(ctx, v.st, scope, v.m)
	e, ends := out.Then.Ends()
	if err == nil && !ends {
		err = fault.New(fault.SystemInternalUnexpected, "the executor of %s state %q did not end the run", v.st.Type, v.st.Name)
	}
	if err != nil {
		return ending{status: RunError, err: err}
	}
	if !e.Failed {
		return ending{status: RunSuccess, terminal: v.st.Name}
	}
	msg := fmt.Sprintf("workflow %q ended in failure state %q", v.m.wf.Name, v.st.Name)
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return ending{status: RunFailure, terminal: v.st.Name, err: fault.New(fault.WorkflowRunFailed, "%s", msg)}
}

// visit is one execution of a state: the state, its kind's executor, the members capability
// it is lent, the log its lines go to, and whether its transitions are followed afterwards.
// step adds the span it runs in.
type visit struct {
	st     *workflow.State
	x      Executor
	m      *members
	log    *zap.Logger
	follow bool
	span   trace.Span
}

// stepped is a state run as a step: its result, where the state itself sends the run, and the
// scope it leaves behind (nil for a state that records nothing but itself).
type stepped struct {
	sr   StepResult
	then Transition
	left *Scope
}

// step runs one state that does not end the run, inside its span and under its timeout. It
// returns an error only for what must stop the whole run; an ordinary failure is a result
// with StepFailure.
func (s *scheduler) step(ctx context.Context, v visit, scope Scope) (stepped, error) {
	sd := stepped{sr: StepResult{Name: v.st.Name, Type: string(v.st.Type)}}
	start := time.Now()
	ctx, span := s.tracer.Start(ctx, "step "+v.st.Name, trace.WithAttributes(
		attribute.String("awf.step", v.st.Name),
		attribute.String("awf.step.type", string(v.st.Type)),
		attribute.String("awf.run.id", s.runID),
	))
	defer span.End()
	span.SetAttributes(flowAttrs(scope)...)
	v.span, v.log = span, v.log.With(zap.String("step", v.st.Name), zap.String("type", string(v.st.Type)))

	s.stepHook(ctx, v, workflow.HookPre, scope)
	err := s.attempts(ctx, v, scope, &sd)
	if err == nil {
		s.stepHook(ctx, v, workflow.HookPost, withStep(scope, sd.sr))
	}
	sd.sr.Duration = time.Since(start)
	if err == nil && ctx.Err() != nil {
		err = interrupted(ctx.Err())
	}
	settle(v, sd.sr, err)
	return sd, err
}

// settle closes a step's span and logs how it ended.
func settle(v visit, sr StepResult, err error) {
	v.span.SetAttributes(attribute.String("awf.step.status", string(sr.Status)), attribute.Int("awf.step.exit_code", sr.ExitCode))
	switch {
	case err != nil:
		v.span.RecordError(err)
		v.span.SetStatus(codes.Error, err.Error())
		v.log.Warn("step stopped the run", zap.Error(err), zap.Duration("duration", sr.Duration))
	case sr.Status == StepFailure:
		v.span.SetStatus(codes.Error, firstLine(sr.Error))
		v.log.Warn("step failed", zap.Int("exit_code", sr.ExitCode), zap.String("error", sr.Error), zap.Duration("duration", sr.Duration))
	default:
		v.log.Info("step succeeded", zap.Duration("duration", sr.Duration))
	}
}

// attempts runs the state until it succeeds or its retry policy gives up, each attempt under
// its own timeout. Each retry is an event, a log line and a span event.
func (s *scheduler) attempts(ctx context.Context, v visit, scope Scope, sd *stepped) error {
	var policy retry.Policy
	if v.st.Retry != nil {
		policy = *v.st.Retry
	}
	sr := &sd.sr
	for n := 1; ; n++ {
		err := s.timed(ctx, v, scope, sd)
		if n > 1 {
			sr.Attempts = n
		}
		if err != nil || sr.Status != StepFailure || !policy.ShouldRetry(n, sr.ExitCode) || ctx.Err() != nil {
			return err
		}
		wait := policy.Wait(n, s.rand())
		s.events.Observe(StepRetrying{Name: v.st.Name, Attempt: n, Of: policy.Attempts(), Wait: wait, ExitCode: sr.ExitCode, Error: sr.Error})
		v.log.Info("step attempt failed; retrying", zap.Int("attempt", n), zap.Int("max_attempts", policy.Attempts()),
			zap.Duration("wait", wait), zap.Int("exit_code", sr.ExitCode), zap.String("error", sr.Error))
		v.span.AddEvent("retry", trace.WithAttributes(attribute.Int("awf.attempt", n), attribute.Int("awf.step.exit_code", sr.ExitCode),
			attribute.String("awf.retry.wait", wait.String())))
		if err := s.wait(ctx, wait); err != nil {
			return interrupted(err)
		}
	}
}

// timed runs one attempt under the step's timeout.
func (s *scheduler) timed(ctx context.Context, v visit, scope Scope, sd *stepped) error {
	if v.st.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, v.st.Timeout, errStepTimeout)
		defer cancel()
	}
	return s.attempt(ctx, v, scope, sd)
}

// attempt executes the state once and folds the Outcome into sd. Its error stops the run.
func (s *scheduler) attempt(ctx context.Context, v visit, scope Scope, sd *stepped) error {
	out, err := v.x.Execute(ctx, v.st, scope, v.m)
	sr := &sd.sr
	sr.Status, sr.Output, sr.Stderr, sr.ExitCode, sr.Error, sr.Tools, sr.JSON, sr.Response = out.Status, out.Output, out.Stderr, out.ExitCode, out.Error, out.Tools, out.JSON, out.Response
	sr.Session = out.Session
	sr.Iterations, sr.Exhausted, sr.Note = out.Iterations, out.Exhausted, out.Note
	sd.then, sd.left = out.Then, out.Scope
	if err == nil {
		return nil
	}
	if stop, ok := stopped(err); ok {
		return stop
	}
	return workError(ctx, v.st, err, sr)
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
