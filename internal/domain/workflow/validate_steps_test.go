package workflow

import (
	"slices"
	"testing"
)

func cmdSpec(w *Workflow) *CommandSpec { return w.States["build"].Command() }
func agentSpec(w *Workflow) *AgentSpec { return w.States["ask"].Agent() }

// TestValidateStepKeys breaks the valid workflow of build() one way per case with the keys of
// script_file, hooks, namespaces and agent formats, asserting each diagnostic a user sees.
func TestValidateStepKeys(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(w *Workflow)
		want   []diag
	}{
		{"script_file is enough", func(w *Workflow) { c := cmdSpec(w); c.Command, c.ScriptFile = "", "s.sh" }, nil},
		{"command and script_file", func(w *Workflow) {
			cmdSpec(w).ScriptFile = "s.sh"
			s := w.States["build"]
			wrote(s, "command", p(6, 5), p(6, 14))
			wrote(s, "script_file", p(7, 5), p(7, 18))
		}, []diag{{"USER.WORKFLOW.SCRIPT_CONFLICT@7:5", `state "build" sets both command and script_file`, "not both"}}},
		{"command and script_file on one line", func(w *Workflow) {
			cmdSpec(w).ScriptFile = "s.sh"
			s := w.States["build"]
			wrote(s, "command", p(6, 6), p(6, 15))
			wrote(s, "script_file", p(6, 20), p(6, 33))
		}, []diag{{"USER.WORKFLOW.SCRIPT_CONFLICT@6:20", "both command and script_file", ""}}},
		{"neither command nor script_file", func(w *Workflow) { cmdSpec(w).Command = "" },
			[]diag{{"USER.WORKFLOW.MISSING_COMMAND@5:3", `command state "build" has no command`, "script_file"}}},
		{"script_file path refers to an unknown input", func(w *Workflow) {
			c := cmdSpec(w)
			c.Command, c.ScriptFile = "", "{{.inputs.dir}}/s.sh"
			wrote(w.States["build"], "script_file", p(7, 5), p(7, 18))
		}, []diag{{"USER.TEMPLATE.UNKNOWN_INPUT@7:18", `script_file of state "build" refers to undeclared input "dir"`, ""}}},
		{"capture is warned about", func(w *Workflow) {
			cmdSpec(w).Capture = &Capture{Stdout: "x"}
			wrote(w.States["build"], "capture", p(8, 5), p(9, 7))
		}, []diag{{"USER.WORKFLOW.CAPTURE_IGNORED@8:5", `capture of state "build" has no effect`, "{{.states.build.Output}}"}}},
		{"hooks on a terminal", func(w *Workflow) {
			w.States["done"].Hooks = StepHooks{Pre: Hook{{Log: "x"}}}
		}, []diag{{"USER.WORKFLOW.KEY_NOT_ALLOWED@12:3", `key "hooks" is not valid for terminal states`, "command or agent"}}},
		{"a hook entry with both keys", func(w *Workflow) {
			w.States["build"].Hooks = StepHooks{Post: Hook{{Log: "x", Command: "y", Keys: 2, Pos: p(20, 9)}}}
		}, []diag{{"USER.WORKFLOW.INVALID_HOOK@20:9", `state "build" hook post[0] must have exactly one of log and command`, "one per entry"}}},
		{"an empty hook entry", func(w *Workflow) {
			w.Hooks = WorkflowHooks{End: Hook{{Pos: p(3, 5)}}}
		}, []diag{{"USER.WORKFLOW.INVALID_HOOK@3:5", "workflow hook workflow_end[0] must have exactly one of log and command", ""}}},
		{"hook templates are checked like steps'", func(w *Workflow) {
			w.Hooks = WorkflowHooks{Start: Hook{{Log: "{{.inputs.targte}}", LogPos: p(3, 12), Keys: 1}}, End: Hook{{Command: "echo \\{{.workflow.nme}}", CommandPos: p(4, 16)}}}
		}, []diag{
			{"USER.TEMPLATE.UNKNOWN_INPUT@3:12", `workflow hook workflow_start[0] log refers to undeclared input "targte"`, "did you mean 'target'?"},
			{"USER.TEMPLATE.UNKNOWN_FIELD@4:16", `reads unknown field "nme" of .workflow`, "did you mean"},
			{"USER.TEMPLATE.SHELL_PLACE@4:16", "workflow hook workflow_end[0] command", ""},
		}},
		{".error outside workflow_error", func(w *Workflow) {
			w.Hooks = WorkflowHooks{End: Hook{{Log: "{{.error.message}}", LogPos: p(3, 12)}}}
		}, []diag{{"USER.TEMPLATE.ERROR_SCOPE@3:12", "only set in workflow_error hooks and after a failure", "workflow_error"}}},
		{".error in workflow_error, both casings", func(w *Workflow) {
			w.Hooks = WorkflowHooks{Error: Hook{{Command: "echo {{.error.message}} {{error.ExitCode}} {{.error.State}} {{.error.type}}", CommandPos: p(3, 16)}}}
		}, nil},
		{"an unknown .error field", func(w *Workflow) {
			w.Hooks = WorkflowHooks{Error: Hook{{Log: "{{.error.code}}", LogPos: p(3, 12)}}}
		}, []diag{{"USER.TEMPLATE.UNKNOWN_FIELD@3:12", `unknown field "code" of .error`, ""}}},
		{"namespaces a step may read", func(w *Workflow) {
			cmdSpec(w).Command = "echo {{.awf.scripts_dir}} {{.context.user}} {{context.WorkingDir}} {{.workflow.duration}} {{.workflow.CurrentState}} {{.states.ask.JSON}}"
			w.States["ask"].OnFailure = "build" // ask can run before build
		}, nil},
		{"an unknown awf dir", func(w *Workflow) {
			cmdSpec(w).Command = "echo {{.awf.script_dir}}"
			wrote(w.States["build"], "command", p(6, 5), p(6, 14))
		}, []diag{{"USER.TEMPLATE.UNKNOWN_FIELD@6:14", `unknown field "script_dir" of .awf`, "did you mean 'scripts_dir'?"}}},
		{"below a context field", func(w *Workflow) { cmdSpec(w).Command = "echo {{.context.user.name}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_FIELD@5:3", `reads field "name" of .context.user, which is a plain value`, "use .context.user"}}},
		{"an .error in a step", func(w *Workflow) { agentSpec(w).Prompt = "{{error.message}}" },
			[]diag{{"USER.TEMPLATE.ERROR_SCOPE@9:3", `prompt of state "ask" reads .error.message`, ""}}},
		{".error in a state reached only through on_failure", func(w *Workflow) {
			w.States["build"].OnSuccess, w.States["build"].OnFailure, w.States["ask"].OnFailure = "done", "ask", "failed"
			w.States["ask"].Hooks = StepHooks{Pre: Hook{{Log: "{{.error.message}}"}}}
			agentSpec(w).Prompt = "fix: {{.error.message}} ({{.error.exit_code}})"
		}, nil},
		{".error in a state nothing leads to", func(w *Workflow) {
			w.States["orphan"] = &State{Name: "orphan", Type: StateCommand, Spec: &CommandSpec{Command: "echo {{.error.message}}"}, OnSuccess: "done", Pos: p(30, 3)}
		}, []diag{
			{"USER.TEMPLATE.ERROR_SCOPE@30:3", `reads .error.message`, ""},
			{"USER.WORKFLOW.UNREACHABLE_STATE@30:3", "never reached", ""},
		}},
		{".error in a state also reached by a transition", func(w *Workflow) {
			w.States["build"].OnSuccess, w.States["build"].OnFailure, w.States["ask"].OnFailure = "done", "ask", "failed"
			w.States["build"].Transitions = []Transition{{When: "false", Goto: "ask"}}
			agentSpec(w).Prompt = "fix: {{.error.message}}"
		}, []diag{{"USER.TEMPLATE.ERROR_SCOPE@9:3", `reads .error.message`, "reached only through on_failure"}}},
		{"system_prompt is a template", func(w *Workflow) { agentSpec(w).SystemPrompt = "{{.inputs.nope}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_INPUT@9:3", `system_prompt of state "ask" refers to undeclared input "nope"`, ""}}},
		{"system_prompt twice", func(w *Workflow) {
			a := agentSpec(w)
			a.SystemPrompt, a.Options = "x", map[string]any{"system_prompt": "y"}
		}, []diag{{"USER.AGENT.PROMPT_CONFLICT@9:3", `state "ask" sets system_prompt twice`, "options.system_prompt"}}},
		{"output formats", func(w *Workflow) { agentSpec(w).OutputFormat = "json" }, nil},
		{"an unknown output format", func(w *Workflow) { agentSpec(w).OutputFormat = "jsno" },
			[]diag{{"USER.WORKFLOW.INVALID_VALUE@9:3", `output_format of state "ask" is "jsno"`, "did you mean 'json'?"}}},
		{"mode single", func(w *Workflow) { agentSpec(w).Mode = ModeSingle }, nil},
		{"an unknown mode", func(w *Workflow) { agentSpec(w).Mode = "chat" },
			[]diag{{"USER.WORKFLOW.INVALID_VALUE@9:3", `mode of state "ask" is "chat"; it must be single or conversation`, ""}}},
		{"mode conversation", func(w *Workflow) { agentSpec(w).Mode = ModeConversation }, nil},
		{"continue_from an agent state that keeps its session", func(w *Workflow) {
			agentSpec(w).Conversation = &Conversation{ContinueFrom: "ask"}
		}, nil},
		{"continue_from an agent state that keeps no session", func(w *Workflow) {
			agentSpec(w).Mode = ModeConversation
			w.States["ask"].Agent().Conversation = nil
			other := *w.States["ask"]
			spec := *agentSpec(w)
			spec.Mode, spec.Conversation = ModeSingle, &Conversation{ContinueFrom: "plain"}
			other.Name, other.Spec = "recall", &spec
			plain := *w.States["ask"]
			pspec := *agentSpec(w)
			pspec.Mode = ModeSingle
			plain.Name, plain.Spec = "plain", &pspec
			w.States["recall"], w.States["plain"] = &other, &plain
			w.Order = append(w.Order, "recall", "plain")
			wrote(&other, "conversation.continue_from", p(11, 7), p(11, 22))
		}, []diag{
			{"USER.WORKFLOW.UNREACHABLE_STATE@9:3", `state "recall" is never reached`, ""},
			{"USER.WORKFLOW.UNREACHABLE_STATE@9:3", `state "plain" is never reached`, ""},
			{"USER.CONVERSATION.NO_SESSION@11:22", `names "plain", which keeps no session`, "add `conversation: {}` to state \"plain\""},
		}},
		{"a conversation on codex", func(w *Workflow) {
			agentSpec(w).Mode, agentSpec(w).Provider = ModeConversation, "codex"
		}, nil},
		{"a conversation on gemini", func(w *Workflow) {
			agentSpec(w).Mode, agentSpec(w).Provider = ModeConversation, "gemini"
		}, nil},
		{"continue_from a state that is not an agent", func(w *Workflow) {
			agentSpec(w).Conversation = &Conversation{ContinueFrom: "build"}
			s := w.States["ask"]
			wrote(s, "conversation", p(10, 5), p(11, 7))
			wrote(s, "conversation.continue_from", p(11, 7), p(11, 22))
		}, []diag{{"USER.WORKFLOW.UNKNOWN_TARGET@11:22", `names "build", which is not an agent state`, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := build()
			tt.mutate(w)
			expectDiags(t, Validate(w), tt.want)
		})
	}
}

// Every provider resumes sessions today; one that could not (SessionProviders shrunk here) is
// warned about where a step continues a conversation on it.
func TestConversationOnAProviderWithoutSessionsIsWarned(t *testing.T) {
	saved := SessionProviders
	SessionProviders = []string{ProviderClaude}
	defer func() { SessionProviders = saved }()
	w := build()
	agentSpec(w).Mode, agentSpec(w).Provider = ModeConversation, "gemini"
	expectDiags(t, Validate(w), []diag{{"USER.CONVERSATION.UNSUPPORTED@9:3", "cannot resume a session of yet", "use provider claude for conversations"}})
}

func TestEveryProviderResumesSessions(t *testing.T) {
	for _, p := range Providers {
		if !slices.Contains(SessionProviders, p) {
			t.Errorf("provider %s is not in SessionProviders", p)
		}
	}
}
