package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// CancelHookTimeout bounds the workflow_cancel hooks: the run's own context is already
// cancelled, so they get a short one of their own.
const CancelHookTimeout = 10 * time.Second

// hookRunner runs hook commands through the shell port, in the project root, with the run's
// environment.
type hookRunner struct {
	commands ports.CommandRunner
	env      []string
	dir      string
}

// HookRan says one hook action ran: a log line or a command, before or after a step (Step set)
// or at the run's start or end.
type HookRan struct {
	Hook   string // workflow_start, workflow_end, workflow_error, workflow_cancel, pre, post
	Step   string // the state, for pre and post
	Index  int    // the action's place in its list, from 0
	Action string // log or command
	// Text is the rendered log message or command; Output the command's stdout.
	Text   string
	Output string
	// Error is why the action failed, "" when it did not.
	Error string
}

func (HookRan) event() {}

// hookList is one list of hook actions to run: the hook's name, the state whose hook it is (""
// for the run's own), and whether its first failure stops the run (workflow_start).
type hookList struct {
	name, step string
	actions    workflow.Hook
	stop       bool
}

// runHook runs the actions of one hook list in order. Each is an event, a log line and a span
// (a child of ctx's span). A failed action is reported and the next one runs, unless the list
// stops at its first failure: then that failure is returned.
func (s *scheduler) runHook(ctx context.Context, hl hookList, scope Scope, log *zap.Logger) error {
	for i := range hl.actions {
		ev := s.hookAction(ctx, hl, i, scope, log)
		s.events.Observe(ev)
		if ev.Error != "" && hl.stop {
			return fault.New(fault.ExecutionHookFailed, "%s hook #%d failed: %s", hl.name, i+1, ev.Error).
				WithHint("fix the hook, or move the check into a step with on_failure")
		}
	}
	return nil
}

// hookAction runs action i of hl inside its span and returns what happened.
func (s *scheduler) hookAction(ctx context.Context, hl hookList, i int, scope Scope, log *zap.Logger) HookRan {
	a, name, step := hl.actions[i], hl.name, hl.step
	ev := HookRan{Hook: name, Step: step, Index: i, Action: "command"}
	if a.Log != "" {
		ev.Action = "log"
	}
	ctx, span := s.tracer.Start(ctx, "hook "+name, trace.WithAttributes(
		attribute.String("awf.hook", name), attribute.String("awf.step", step),
		attribute.Int("awf.hook.index", i), attribute.String("awf.hook.action", ev.Action),
		attribute.String("awf.run.id", s.runID)))
	defer span.End()
	where := fmt.Sprintf("%s hook #%d", name, i+1)
	if step != "" {
		where = fmt.Sprintf("%s hook #%d of %q", name, i+1, step)
	}
	var err error
	if a.Log != "" {
		ev.Text, err = render(where, a.Log, scope, a.LogPos)
	} else {
		var req ports.CommandRequest
		ev.Text, req, err = hookCommand(where, a, scope)
		if err == nil {
			ev.Output, err = s.hooks.command(ctx, req)
		}
	}
	fields := []zap.Field{zap.String("hook", name), zap.String("step", step), zap.Int("index", i), zap.String("action", ev.Action)}
	if err != nil {
		ev.Error = plainError(err)
		span.RecordError(err)
		span.SetStatus(codes.Error, firstLine(ev.Error))
		log.Warn("hook failed", append(fields, zap.Error(err))...)
		return ev
	}
	if a.Log != "" {
		log.Info(ev.Text, fields...)
	} else {
		log.Info("hook ran", append(fields, zap.String("command", ev.Text))...)
	}
	return ev
}

// command runs a hook command; a non-zero exit is an error carrying its stderr.
func (h *hookRunner) command(ctx context.Context, req ports.CommandRequest) (string, error) {
	if h == nil || h.commands == nil {
		return "", fault.New(fault.SystemRunSetup, "this awf has no command runner wired for hooks")
	}
	req.Dir, req.Env = h.dir, h.env
	res, err := h.commands.RunCommand(ctx, req)
	out := strings.TrimRight(res.Stdout, "\n")
	if err != nil {
		return out, err
	}
	if res.ExitCode != 0 {
		msg := fmt.Sprintf("exit code %d", res.ExitCode)
		if e := strings.TrimSpace(res.Stderr); e != "" {
			msg += ": " + tail(e, outputKeepForDisplay)
		}
		return out, fault.New(fault.ExecutionHookFailed, "%s", msg)
	}
	return out, nil
}

// plainError is err's message and cause without its code, position and hint, for messages
// that carry their own.
func plainError(err error) string {
	var fe *fault.Error
	if !errors.As(err, &fe) {
		return err.Error()
	}
	msg := fe.Message
	if fe.Err != nil && !strings.Contains(msg, fe.Err.Error()) {
		msg += ": " + fe.Err.Error()
	}
	return msg
}
