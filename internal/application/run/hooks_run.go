package run

import (
	"context"
	"errors"
	"path"
	"strings"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// stepHook runs a state's pre or post hooks under the step's context. Their failures are
// shown and logged; they never change the step's outcome, as in the reference awf.
func (s *scheduler) stepHook(ctx context.Context, v visit, name string, scope Scope) {
	h := v.st.Hooks.Pre
	if name == workflow.HookPost {
		h = v.st.Hooks.Post
	}
	_ = s.runHook(ctx, hookList{name: name, step: v.st.Name, actions: h}, scope, v.log)
}

// workflowStart runs the workflow_start hooks; the first failure stops the run before its
// initial state.
func (s *scheduler) workflowStart(ctx context.Context, wf *workflow.Workflow, scope Scope, log *zap.Logger) error {
	return s.runHook(ctx, hookList{name: workflow.HookWorkflowStart, actions: wf.Hooks.Start, stop: true}, scope, log)
}

// workflowEnd runs the hooks of how the run ended: workflow_end after success, workflow_error
// (with .error set) after a failure or an error, workflow_cancel after an interrupt, under a
// short context of its own since the run's is cancelled. Their failures do not change the run's
// outcome.
func (s *scheduler) workflowEnd(ctx context.Context, wf *workflow.Workflow, end ending, scope Scope, log *zap.Logger) {
	switch end.status {
	case RunSuccess:
		_ = s.runHook(ctx, hookList{name: workflow.HookWorkflowEnd, actions: wf.Hooks.End}, scope, log)
	case RunInterrupted:
		if len(wf.Hooks.Cancel) == 0 {
			return
		}
		hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), CancelHookTimeout)
		defer cancel()
		_ = s.runHook(hctx, hookList{name: workflow.HookWorkflowCancel, actions: wf.Hooks.Cancel}, scope, log)
	default:
		if len(wf.Hooks.Error) == 0 {
			return
		}
		_ = s.runHook(ctx, hookList{name: workflow.HookWorkflowError, actions: wf.Hooks.Error}, scope.WithError(runError(end, scope)), log)
	}
}

// runError is .error for a failed run: its message, the state where it failed, that state's
// exit code (or, for a terminal state or an error outside any step, the exit code awf ends with)
// and the error's category in lower case (user, workflow, execution, system).
func runError(end ending, scope Scope) ErrorInfo {
	e := ErrorInfo{State: end.state}
	if end.err != nil {
		e.Message = end.err.Error()
		var fe *fault.Error
		if errors.As(end.err, &fe) {
			e.Message = fe.Message
		}
		e.ExitCode = fault.ExitCode(end.err)
		if code := fault.CodeOf(end.err); code != "" {
			cat, _, _ := strings.Cut(code, ".")
			e.Type = strings.ToLower(cat)
		}
	}
	if d, ok := scope.State(end.state); ok && d.ExitCode != 0 {
		e.ExitCode = d.ExitCode
	} else if h := scope.host; !ok && h != nil && h.err != nil && h.err.ExitCode != 0 {
		e.ExitCode = h.err.ExitCode // a failure terminal: the step that led there
	}
	return e
}

// stepError is .error after a step failed and the run went on: for on_failure targets and
// failure terminals' messages.
func stepError(sr StepResult) ErrorInfo {
	return ErrorInfo{Message: sr.Error, State: sr.Name, ExitCode: sr.ExitCode, Type: "execution"}
}

// withStep records a step's result in scope, and its error when it failed.
func withStep(scope Scope, sr StepResult) Scope {
	scope = scope.WithState(sr.Name, stateDataOf(sr))
	if sr.Status == StepFailure {
		scope = scope.WithError(stepError(sr))
	}
	return scope
}

// workflowDir is the directory of the workflow's file, "" for a workflow built in code.
func workflowDir(wf *workflow.Workflow) string {
	if wf.File == "" {
		return ""
	}
	return path.Dir(wf.File)
}

// readFile is the readFile helper of a run: paths relative to the project root, confined to it.
func (r *Runner) readFile(ctx context.Context) func(string) (string, error) {
	return func(p string) (string, error) {
		if r.opts.Files == nil {
			return "", fault.New(fault.SystemRunSetup, "readFile %q: this awf has no file reader wired", p)
		}
		return r.opts.Files.ReadConfined(ctx, r.opts.Dir, p)
	}
}
