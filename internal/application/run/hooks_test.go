package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

func logHook(text string) workflow.HookAction { return workflow.HookAction{Log: text} }
func cmdHook(text string) workflow.HookAction { return workflow.HookAction{Command: text} }

// hookLines renders the run's HookRan events as "hook[step]:action:text!error".
func hookLines(events []Event) []string {
	var out []string
	for _, e := range events {
		if h, ok := e.(HookRan); ok {
			line := h.Hook
			if h.Step != "" {
				line += "[" + h.Step + "]"
			}
			line += ":" + h.Action + ":" + h.Text
			if h.Error != "" {
				line += "!" + firstLine(h.Error)
			}
			out = append(out, line)
		}
	}
	return out
}

func TestHooks(t *testing.T) {
	ok := ports.CommandResult{Stdout: "out\n"}
	fail := ports.CommandResult{ExitCode: 3, Stderr: "boom"}
	tests := []struct {
		name     string
		hooks    workflow.WorkflowHooks
		step     workflow.StepHooks
		results  map[string]ports.CommandResult
		status   string
		code     string
		want     []string
		commands []string
		noFail   bool // a has no on_failure
	}{
		{
			name:     "every kind in order on success",
			hooks:    workflow.WorkflowHooks{Start: workflow.Hook{logHook("start {{.workflow.name}}")}, End: workflow.Hook{cmdHook("echo end {{.states.a.Output}}")}, Error: workflow.Hook{logHook("never")}},
			step:     workflow.StepHooks{Pre: workflow.Hook{cmdHook("echo pre")}, Post: workflow.Hook{logHook("post {{.states.a.ExitCode}} {{.states.a.Status}}")}},
			results:  map[string]ports.CommandResult{"echo pre": ok, "run a": ok, "echo end out": ok},
			status:   RunSuccess,
			want:     []string{"workflow_start:log:start t", "pre[a]:command:echo pre", "post[a]:log:post 0 success", "workflow_end:command:echo end out"},
			commands: []string{"echo pre", "run a", "echo end out"},
		},
		{
			name:     "a failing workflow_start stops the run before any step",
			hooks:    workflow.WorkflowHooks{Start: workflow.Hook{cmdHook("false"), logHook("not reached")}, Error: workflow.Hook{logHook("not run either")}},
			results:  map[string]ports.CommandResult{"false": fail},
			status:   RunError,
			code:     fault.ExecutionHookFailed,
			want:     []string{"workflow_start:command:false!exit code 3: boom"},
			commands: []string{"false"},
		},
		{
			name:     "failing pre and post hooks do not fail the step; later actions still run",
			step:     workflow.StepHooks{Pre: workflow.Hook{cmdHook("false"), logHook("next")}, Post: workflow.Hook{logHook("{{.nope}}")}},
			results:  map[string]ports.CommandResult{"false": fail, "run a": ok},
			status:   RunSuccess,
			want:     []string{"pre[a]:command:false!exit code 3: boom", "pre[a]:log:next", `post[a]:log:!template in post hook #1 of "a" failed: template: post hook #1 of "a":1:2: executing "post hook #1 of \"a\"" at <.nope>: map has no entry for key "nope"`},
			commands: []string{"false", "run a"},
		},
		{
			name:     "a failed run runs workflow_error with .error, not workflow_end",
			hooks:    workflow.WorkflowHooks{End: workflow.Hook{logHook("never")}, Error: workflow.Hook{logHook("{{.error.state}} {{.error.exit_code}} {{.error.type}} | {{error.Message}}")}},
			results:  map[string]ports.CommandResult{"run a": fail},
			status:   RunFailure,
			code:     fault.WorkflowRunFailed,
			want:     []string{`workflow_error:log:bad 3 workflow | workflow "t" ended in failure state "bad": because boom`},
			commands: []string{"run a"},
		},
		{
			name:     "a step failing without on_failure: .error names it and its exit code",
			hooks:    workflow.WorkflowHooks{Error: workflow.Hook{logHook("{{.error.state}} {{.error.exit_code}}")}},
			results:  map[string]ports.CommandResult{"run a": fail},
			status:   RunFailure,
			code:     fault.WorkflowRunFailed,
			want:     []string{"workflow_error:log:a 3"},
			commands: []string{"run a"},
			noFail:   true,
		},
		{
			name:     "a broken workflow hook template is named by its place",
			hooks:    workflow.WorkflowHooks{End: workflow.Hook{logHook("ok"), logHook("{{.nope}}")}},
			results:  map[string]ports.CommandResult{"run a": ok},
			status:   RunSuccess,
			want:     []string{"workflow_end:log:ok", `workflow_end:log:!template in workflow_end hook #2 failed: template: workflow_end hook #2:1:2: executing "workflow_end hook #2" at <.nope>: map has no entry for key "nope"`},
			commands: []string{"run a"},
		},
		{
			name:     "a failing workflow_end does not change the outcome",
			hooks:    workflow.WorkflowHooks{End: workflow.Hook{cmdHook("false")}},
			results:  map[string]ports.CommandResult{"run a": ok, "false": fail},
			status:   RunSuccess,
			want:     []string{"workflow_end:command:false!exit code 3: boom"},
			commands: []string{"run a", "false"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := cmdState("a", "run a", "done", "bad")
			if tc.noFail {
				a.OnFailure = ""
			}
			a.Hooks = tc.step
			wf := flow(a)
			wf.Hooks = tc.hooks
			sh := &fakeShell{t: t, results: tc.results}
			rec := &recorder{}
			res, err := newRun(t, Options{Commands: sh, Observer: rec}).Run(context.Background(), wf, one)
			if res.Status != tc.status || fault.CodeOf(err) != tc.code {
				t.Fatalf("status %s, err %v; want %s, %s", res.Status, err, tc.status, tc.code)
			}
			if tc.code == fault.ExecutionHookFailed && !strings.Contains(err.Error(), "workflow_start hook #1 failed: exit code 3: boom") {
				t.Errorf("err = %v", err)
			}
			if got := hookLines(rec.events); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("hooks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if got := sh.commands(); strings.Join(got, ";") != strings.Join(tc.commands, ";") {
				t.Errorf("commands %q, want %q", got, tc.commands)
			}
		})
	}
}

func TestWorkflowCancelHookGetsItsOwnContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sh := &hookShell{cancel: cancel}
	wf := flow(cmdState("a", "run a", "done", "bad"))
	wf.Hooks = workflow.WorkflowHooks{Cancel: workflow.Hook{cmdHook("cleanup")}, Error: workflow.Hook{logHook("never")}}
	rec := &recorder{}
	res, err := newRun(t, Options{Commands: sh, Observer: rec}).Run(ctx, wf, one)
	if res.Status != RunInterrupted || fault.ExitCode(err) != fault.ExitInterrupted {
		t.Fatalf("status %s, err %v", res.Status, err)
	}
	if got := hookLines(rec.events); len(got) != 1 || got[0] != "workflow_cancel:command:cleanup" {
		t.Errorf("hooks = %q", got)
	}
	if !sh.hadDeadline || sh.cleanupErr != nil {
		t.Errorf("cleanup ran with deadline %v, ctx err %v", sh.hadDeadline, sh.cleanupErr)
	}
}

// hookShell cancels the run when the step runs, then records how the cancel hook was called.
type hookShell struct {
	cancel      context.CancelFunc
	hadDeadline bool
	cleanupErr  error
}

func (h *hookShell) RunCommand(ctx context.Context, req ports.CommandRequest) (ports.CommandResult, error) {
	if req.Command == "cleanup" {
		_, h.hadDeadline = ctx.Deadline()
		h.cleanupErr = ctx.Err()
		return ports.CommandResult{}, nil
	}
	h.cancel()
	return ports.CommandResult{ExitCode: -1}, errors.New("killed")
}

func TestHookLogLines(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	wf := flow(cmdState("a", "run a", "done", "bad"))
	wf.Hooks = workflow.WorkflowHooks{Start: workflow.Hook{logHook("hello {{.workflow.name}}"), cmdHook("echo hi")}}
	sh := &fakeShell{t: t, results: map[string]ports.CommandResult{"echo hi": {}, "run a": {}}}
	if _, err := newRun(t, Options{Commands: sh, Logger: zap.New(core)}).Run(context.Background(), wf, one); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range logs.All() {
		if h, ok := e.ContextMap()["hook"]; ok {
			got = append(got, fmt.Sprintf("%s|%s|%v|%v", e.Message, h, e.ContextMap()["action"], e.ContextMap()["command"]))
		}
	}
	want := []string{"hello t|workflow_start|log|<nil>", "hook ran|workflow_start|command|echo hi"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
