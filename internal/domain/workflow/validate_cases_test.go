package workflow

import (
	"fmt"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/retry"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// p is a position in the test workflow's file.
func p(line, col int) fault.Position { return fault.Position{File: "wf.yaml", Line: line, Column: col} }

// wrote records that key of s was written at key, with its value at value.
func wrote(s *State, key string, k, v fault.Position) {
	if s.KeyPos == nil {
		s.KeyPos, s.ValuePos = map[string]fault.Position{}, map[string]fault.Position{}
	}
	s.KeyPos[key], s.ValuePos[key] = k, v
}

func wroteTop(w *Workflow, key string, k, v fault.Position) {
	if w.Pos == nil {
		w.Pos, w.ValuePos = map[string]fault.Position{}, map[string]fault.Position{}
	}
	w.Pos[key], w.ValuePos[key] = k, v
}

func proxyOn(w *Workflow, m *MCPProxy) *MCPProxy {
	w.States["ask"].Agent().MCPProxy = m
	return m
}

// diag is an expected diagnostic: "CODE@line:col", and words its message and hint must hold
// (a message starting with ^ must start with what follows).
type diag struct {
	at, msg, hint string
}

// TestValidateCases builds a valid workflow in code and breaks it one way per case, asserting
// each diagnostic's code, position, message and hint: what a user sees.
func TestValidateCases(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(w *Workflow)
		want   []diag
	}{
		// The header.
		{"name written empty", func(w *Workflow) { w.Name = ""; wroteTop(w, "name", p(1, 1), p(1, 7)) },
			[]diag{{"USER.WORKFLOW.MISSING_NAME@1:7", "workflow name is empty", "give the workflow a name"}}},
		{"no name", func(w *Workflow) { w.Name = "" },
			[]diag{{"USER.WORKFLOW.MISSING_NAME@1:1", "workflow has no name", "add `name: <workflow-name>`"}}},
		{"no name and no file", func(w *Workflow) { w.Name, w.File = "", "" },
			[]diag{{"USER.WORKFLOW.MISSING_NAME@0:0", "workflow has no name", ""}}},
		{"initial written empty", func(w *Workflow) { w.Initial = ""; wroteTop(w, "states.initial", p(3, 3), p(3, 12)) },
			[]diag{{"USER.WORKFLOW.MISSING_INITIAL@3:12", "no initial state", "add `initial: build` under `states:`"}}},
		{"no initial", func(w *Workflow) { w.Initial = " "; wroteTop(w, "states", p(2, 1), p(3, 3)) },
			[]diag{{"USER.WORKFLOW.MISSING_INITIAL@2:1", "no initial state", ""}}},
		{"unknown initial", func(w *Workflow) { w.Initial = "biuld"; wroteTop(w, "states.initial", p(3, 3), p(3, 12)) },
			[]diag{{"USER.WORKFLOW.UNKNOWN_INITIAL@3:12", `initial state "biuld" is not defined`, "did you mean 'build'?"}}},

		// Inputs.
		{"input without a name", func(w *Workflow) { w.Inputs = append(w.Inputs, Input{Pos: p(6, 5)}) },
			[]diag{{"USER.INPUT.MISSING_NAME@6:5", "input #2 has no name", "add `name: <input>`"}}},
		{"input name templates cannot reach", func(w *Workflow) { w.Inputs = append(w.Inputs, Input{Name: "2x-y", Pos: p(6, 5)}) },
			[]diag{{"USER.INPUT.INVALID_NAME@6:5", `input name "2x-y" cannot be used in templates as .inputs.2x-y`, `e.g. "_2x_y"`}}},
		{"input name at its value", func(w *Workflow) {
			w.Inputs = append(w.Inputs, Input{Name: "a b", Pos: p(6, 5)})
			wroteTop(w, "inputs[1].name", p(6, 5), p(6, 11))
		}, []diag{{"USER.INPUT.INVALID_NAME@6:11", `"a b"`, `"a_b"`}}},
		{"input declared twice", func(w *Workflow) {
			w.Inputs = append(w.Inputs, Input{Name: "target", Pos: p(7, 5)})
			wroteTop(w, "inputs[0].name", p(4, 5), p(4, 11))
		}, []diag{{"USER.INPUT.DUPLICATE_NAME@7:5", `input "target" is declared twice`, "first declared at line 4; rename or remove one of them"}}},
		{"input declared twice, no file", func(w *Workflow) {
			w.File = ""
			w.Inputs = append(w.Inputs, Input{Name: "target"})
		}, []diag{{"USER.INPUT.DUPLICATE_NAME@0:0", "declared twice", "rename or remove one of them"}}},
		{"input declared twice, first at no line", func(w *Workflow) {
			w.Inputs = append(w.Inputs, Input{Name: "target", Pos: p(7, 5)})
			wroteTop(w, "inputs[0].name", fault.Position{File: "wf.yaml"}, fault.Position{File: "wf.yaml"})
		}, []diag{{"USER.INPUT.DUPLICATE_NAME@7:5", "declared twice", "rename or remove one of them"}}},
		{"unknown input type, default not judged", func(w *Workflow) {
			w.Inputs = append(w.Inputs, Input{Name: "n", Type: "int", Default: "x"})
			wroteTop(w, "inputs[1].type", p(8, 5), p(8, 11))
		}, []diag{{"USER.INPUT.INVALID_TYPE@8:11", `input "n" has unknown type "int"`, "did you mean 'integer'?"}}},
		{"boolean default as text", func(w *Workflow) { w.Inputs = append(w.Inputs, Input{Name: "b", Type: InputBoolean, Default: "yes"}) },
			[]diag{{"USER.INPUT.INVALID_DEFAULT@1:1", `default "yes" of input "b" is not a boolean`, "write `default: true` or `default: false`"}}},
		{"untyped input with a number default", func(w *Workflow) { w.Inputs = append(w.Inputs, Input{Name: "s", Default: int64(3)}) },
			[]diag{{"USER.INPUT.INVALID_DEFAULT@1:1", `default 3 of input "s" is not a string`, "quote the default"}}},
		{"integer default as a list", func(w *Workflow) {
			w.Inputs = append(w.Inputs, Input{Name: "i", Type: InputInteger, Default: []any{1}})
		},
			[]diag{{"USER.INPUT.INVALID_DEFAULT@1:1", `default (a list) of input "i" is not an integer`, "write a whole number"}}},
		{"string default as a mapping", func(w *Workflow) {
			w.Inputs = append(w.Inputs, Input{Name: "m", Type: InputString, Default: map[string]any{}})
			wroteTop(w, "inputs[1].default", p(9, 5), p(9, 14))
		}, []diag{{"USER.INPUT.INVALID_DEFAULT@9:14", `default (a mapping) of input "m" is not a string`, ""}}},
		{"good defaults", func(w *Workflow) {
			w.Inputs = append(w.Inputs, Input{Name: "a", Type: InputInteger, Default: int64(1)}, Input{Name: "b", Type: InputBoolean, Default: false},
				Input{Name: "c", Default: "x"}, Input{Name: "d", Type: InputString})
		}, nil},

		// States and their kinds.
		{"a state without type", func(w *Workflow) { w.States["build"].Type, w.States["build"].Spec = "", nil },
			[]diag{{"USER.WORKFLOW.MISSING_STATE_TYPE@5:3", `state "build" has no type`, "add `type: command`"}}},
		{"a state of unknown type needs no on_success", func(w *Workflow) {
			s := w.States["build"]
			s.Type, s.Spec, s.OnSuccess, s.OnFailure = "shell", nil, "", ""
			wrote(s, "type", p(6, 5), p(6, 11))
		}, []diag{{"USER.WORKFLOW.UNKNOWN_STATE_TYPE@6:11", `state "build" has unknown type "shell"`, "valid: command, agent, terminal, parallel, for_each, while, call_workflow, operation, step"}}},
		{"a key of terminals on an agent", func(w *Workflow) { wrote(w.States["ask"], "status", p(11, 5), p(11, 13)) },
			[]diag{{"USER.WORKFLOW.KEY_NOT_ALLOWED@11:5", `key "status" is not valid for agent states`, "remove `status:`, or change `type:` to terminal"}}},
		{"a key of two kinds on a terminal", func(w *Workflow) { wrote(w.States["done"], "dir", p(12, 20), p(12, 25)) },
			[]diag{{"USER.WORKFLOW.KEY_NOT_ALLOWED@12:20", `key "dir" is not valid for terminal states`, "change `type:` to command or agent"}}},
		{"mcp_proxy on a terminal", func(w *Workflow) { wrote(w.States["done"], "mcp_proxy", p(12, 20), p(12, 31)) },
			[]diag{{"USER.WORKFLOW.KEY_NOT_ALLOWED@12:20", `mcp_proxy is only valid on agent states, and "done" is a terminal state`, "move `mcp_proxy:` to an agent state"}}},
		{"on_failure on a terminal", func(w *Workflow) { w.States["done"].OnFailure = "build" },
			[]diag{{"USER.WORKFLOW.TERMINAL_TRANSITION@12:3", `terminal state "done" must not have on_failure`, `make "done" a command or agent state`}}},
		{"timeout on a terminal", func(w *Workflow) { w.States["done"].Timeout = -1 },
			[]diag{{"USER.WORKFLOW.KEY_NOT_ALLOWED@12:3", `key "timeout" is not valid for terminal states`, ""}}},
		{"a description is fine anywhere", func(w *Workflow) { w.States["done"].Description = "end" }, nil},
		{"command written empty", func(w *Workflow) {
			w.States["build"].Command().Command = " "
			wrote(w.States["build"], "command", p(6, 5), p(6, 14))
		}, []diag{{"USER.WORKFLOW.MISSING_COMMAND@6:14", `command of state "build" is empty`, "add `command: <shell command>`"}}},
		{"command missing", func(w *Workflow) { w.States["build"].Command().Command = "" },
			[]diag{{"USER.WORKFLOW.MISSING_COMMAND@5:3", `command state "build" has no command`, ""}}},
		{"provider missing", func(w *Workflow) { w.States["ask"].Agent().Provider = " " },
			[]diag{{"USER.AGENT.MISSING_PROVIDER@9:3", `agent state "ask" has no provider`, "claude, gemini, codex, opencode, openai_compatible"}}},
		{"unknown provider", func(w *Workflow) {
			w.States["ask"].Agent().Provider = "claud"
			wrote(w.States["ask"], "provider", p(10, 5), p(10, 15))
		}, []diag{{"USER.AGENT.UNKNOWN_PROVIDER@10:15", `state "ask" uses unknown provider "claud"`, "did you mean 'claude'?"}}},
		{"prompt and prompt_file: the second is pointed at", func(w *Workflow) {
			w.States["ask"].Agent().PromptFile = "p.md"
			wrote(w.States["ask"], "prompt", p(11, 5), p(11, 13))
			wrote(w.States["ask"], "prompt_file", p(12, 5), p(12, 18))
		}, []diag{{"USER.AGENT.PROMPT_CONFLICT@12:5", `state "ask" sets both prompt and prompt_file`, "not both"}}},
		{"prompt after prompt_file", func(w *Workflow) {
			w.States["ask"].Agent().PromptFile = "p.md"
			wrote(w.States["ask"], "prompt", p(12, 5), p(12, 13))
			wrote(w.States["ask"], "prompt_file", p(11, 5), p(11, 18))
		}, []diag{{"USER.AGENT.PROMPT_CONFLICT@12:5", "", ""}}},
		{"prompt after prompt_file on one line", func(w *Workflow) {
			w.States["ask"].Agent().PromptFile = "p.md"
			wrote(w.States["ask"], "prompt", p(11, 30), p(11, 38))
			wrote(w.States["ask"], "prompt_file", p(11, 9), p(11, 22))
		}, []diag{{"USER.AGENT.PROMPT_CONFLICT@11:30", "", ""}}},
		{"prompt_file after prompt on one line", func(w *Workflow) {
			w.States["ask"].Agent().PromptFile = "p.md"
			wrote(w.States["ask"], "prompt", p(11, 9), p(11, 17))
			wrote(w.States["ask"], "prompt_file", p(11, 30), p(11, 43))
		}, []diag{{"USER.AGENT.PROMPT_CONFLICT@11:30", "", ""}}},
		{"prompt_file written empty", func(w *Workflow) {
			w.States["ask"].Agent().Prompt = ""
			wrote(w.States["ask"], "prompt_file", p(11, 5), p(11, 18))
		}, []diag{{"USER.AGENT.MISSING_PROMPT@11:18", `prompt_file of state "ask" is empty`, "give the path of the prompt file"}}},
		{"prompt written empty", func(w *Workflow) {
			w.States["ask"].Agent().Prompt = ""
			wrote(w.States["ask"], "prompt", p(11, 5), p(11, 13))
		}, []diag{{"USER.AGENT.MISSING_PROMPT@11:13", `prompt of state "ask" is empty`, "write the instructions"}}},
		{"neither prompt nor prompt_file", func(w *Workflow) { w.States["ask"].Agent().Prompt = "" },
			[]diag{{"USER.AGENT.MISSING_PROMPT@9:3", `agent state "ask" has neither prompt nor prompt_file`, "add `prompt: <instructions>`"}}},
		{"misspelt status", func(w *Workflow) {
			w.States["done"].Terminal().Status = "sucess"
			wrote(w.States["done"], "status", p(12, 20), p(12, 28))
		}, []diag{{"USER.WORKFLOW.INVALID_STATUS@12:28", `terminal state "done" has status "sucess"; it must be success or failure`, "did you mean 'success'?"}}},
		{"failure status", func(w *Workflow) { w.States["done"].Terminal().Status = StatusFailure }, nil},

		// Transitions and timeouts.
		{"unknown target", func(w *Workflow) {
			w.States["build"].OnFailure = "faild"
			wrote(w.States["build"], "on_failure", p(8, 5), p(8, 17))
		}, []diag{{"USER.WORKFLOW.UNKNOWN_TARGET@8:17", `on_failure of state "build" names unknown state "faild"`, "did you mean 'failed'?"}}},
		{"on_success written empty", func(w *Workflow) {
			w.States["ask"].OnSuccess = ""
			wrote(w.States["ask"], "on_success", p(11, 5), p(11, 17))
		}, []diag{{"USER.WORKFLOW.NO_EXIT@11:17", `on_success of state "ask" is empty`, "add `on_success: <state>` or make it a terminal state"}}},
		{"no on_success", func(w *Workflow) { w.States["ask"].OnSuccess = "" },
			[]diag{{"USER.WORKFLOW.NO_EXIT@9:3", `state "ask" has no on_success: the run cannot go on after it`, ""}}},
		{"zero timeout written", func(w *Workflow) { wrote(w.States["build"], "timeout", p(7, 5), p(7, 14)) },
			[]diag{{"USER.WORKFLOW.INVALID_TIMEOUT@7:14", `timeout of state "build" must be positive, got 0s`, "write a positive number of seconds (120) or a Go duration"}}},
		{"a positive timeout", func(w *Workflow) { w.States["build"].Timeout = 1 }, nil},

		// Templates.
		{"a template that does not parse, on its second line", func(w *Workflow) {
			w.States["build"].Command().Command = "ok\n{{.inputs.target"
			wrote(w.States["build"], "command", p(6, 5), p(6, 14))
		}, []diag{{"USER.TEMPLATE.SYNTAX@6:14", `command of state "build" is not a valid template: line 2 of the template: `, "each opens with {{ and closes with }}"}}},
		{"an unknown input on the second line", func(w *Workflow) { w.States["build"].Command().Command = "echo\n{{.inputs.targte}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_INPUT@5:3", `line 2 of command of state "build" refers to undeclared input "targte" (.inputs.targte)`, "did you mean 'target'?"}}},
		{"an unknown input like no other", func(w *Workflow) { w.States["build"].Command().Command = "{{.inputs.zzz}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_INPUT@5:3", `^command of state "build" refers`, "declare it under `inputs:` with `- name: zzz`"}}},
		{"an unknown state alone", func(w *Workflow) { w.States["build"].Command().Command = "{{.states.nope}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_STATE@5:3", `^command of state "build" refers to unknown state "nope" (.states.nope)`, ""}}},
		{"transitions: a missing goto, an unknown target, and a default entry replacing on_success", func(w *Workflow) {
			b := w.States["build"]
			b.OnSuccess = ""
			b.Transitions = []Transition{{When: "x"}, {When: "y", Goto: "dnoe"}, {Goto: "ask"}}
			wrote(b, "transitions[0]", p(20, 7), p(20, 7))
			wrote(b, "transitions[1].goto", p(22, 9), p(22, 15))
		}, []diag{
			{"USER.WORKFLOW.MISSING_GOTO@20:7", `entry 1 of transitions of state "build" has no goto`, "add `goto: <state>`"},
			{"USER.WORKFLOW.UNKNOWN_TARGET@22:15", `transitions[1].goto of state "build" names unknown state "dnoe"`, "did you mean 'done'?"},
		}},
		{"a conditional transition alone does not replace on_success", func(w *Workflow) {
			b := w.States["build"]
			b.OnSuccess = ""
			b.Transitions = []Transition{{When: "x", Goto: "ask"}}
		}, []diag{{"USER.WORKFLOW.NO_EXIT@5:3", `state "build" has no on_success`, ""}}},
		{"a value after a backslash in a command", func(w *Workflow) { w.States["build"].Command().Command = "echo ok\necho \\{{.inputs.target}}" },
			[]diag{{"USER.TEMPLATE.SHELL_PLACE@5:3", `line 2, column 7 of command of state "build": a value right after a backslash`, "rewrite the shell text around it"}}},
		{"raw in a command is a warning", func(w *Workflow) { w.States["build"].Command().Command = "echo {{raw .inputs.target}}" },
			[]diag{{"USER.TEMPLATE.RAW@5:3", `line 1, column 6 of command of state "build" pastes a value into the shell unescaped`, "drop raw"}}},
		{"the roots alone are fine", func(w *Workflow) {
			w.States["build"].Command().Command = "{{.inputs}} {{.states}} {{.env}} {{.workflow}} {{.workflow.ID}} {{.env.X}} {{.states.ask}}"
			w.States["ask"].OnFailure = "build" // ask can run before build
		}, nil},
		{"a field of an input", func(w *Workflow) { w.States["build"].Command().Command = "{{.inputs.target.x}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_FIELD@5:3", `reads field "x" of input "target", which is a plain value`, "use .inputs.target"}}},
		{"an unknown state", func(w *Workflow) { w.States["build"].Command().Dir = "{{.states.nope.Output}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_STATE@5:3", `dir of state "build" refers to unknown state "nope"`, "valid: build, ask, done, failed"}}},
		{"an unknown field of a state", func(w *Workflow) { w.States["ask"].Agent().Prompt = "{{.states.build.Outptu}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_FIELD@9:3", `prompt of state "ask" reads unknown field "Outptu" of state "build"`, "did you mean 'Output'?"}}},
		{"both spellings of the reference, with or without the dot", func(w *Workflow) {
			w.States["ask"].Agent().Prompt = "{{states.build.output}} {{.states.build.exit_code}} {{inputs.target}} {{workflow.id}} {{env.HOME}} {{.states.build.Status}}"
		}, nil},
		{"a namespace without its dot is checked too", func(w *Workflow) { w.States["ask"].Agent().Prompt = "{{inputs.targte}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_INPUT@9:3", `refers to undeclared input "targte" (.inputs.targte)`, "did you mean 'target'?"}}},
		{"a field of a state's field", func(w *Workflow) { w.States["ask"].Agent().Dir = "{{.states.build.Output.x}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_FIELD@9:3", `reads field "x" of .states.build.Output, which is a plain value`, "use .states.build.Output"}}},
		{"a field of an environment variable", func(w *Workflow) { w.States["build"].Command().Command = "{{.env.HOME.x}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_FIELD@5:3", `reads field "x" of environment variable "HOME"`, "use .env.HOME"}}},
		{"an unknown field of the workflow", func(w *Workflow) { w.States["build"].Command().Command = "{{.workflow.Id}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_FIELD@5:3", `reads unknown field "Id" of .workflow`, "did you mean 'ID'?"}}},
		{"a field of the workflow's field", func(w *Workflow) { w.States["build"].Command().Command = "{{.workflow.Name.x}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_FIELD@5:3", `reads field "x" of .workflow.Name, which is a plain value`, "use .workflow.Name"}}},
		{"a misspelt root", func(w *Workflow) { w.States["build"].Command().Command = "{{.input.target}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_REFERENCE@5:3", `command of state "build" uses unknown reference .input.target`, "did you mean '.inputs'? templates can use"}}},
		{"an unknown root", func(w *Workflow) { w.States["build"].Command().Command = "{{.zzz}}" },
			[]diag{{"USER.TEMPLATE.UNKNOWN_REFERENCE@5:3", "unknown reference .zzz", "templates can use .inputs.NAME"}}},

		// The MCP proxy.
		{"a proxy that says enable: false is quiet", func(w *Workflow) {
			m := proxyOn(w, &MCPProxy{Pos: p(11, 5), Intent: DefaultIntent(), PluginTools: []PluginTools{{Plugin: "p", Expose: []string{"op"}}}})
			m.KeyPos = map[string]fault.Position{"enable": p(12, 7)}
		}, nil},
		{"an empty proxy block is quiet", func(w *Workflow) { proxyOn(w, &MCPProxy{Pos: p(11, 5)}) }, nil},
		{"settings without enable", func(w *Workflow) {
			m := proxyOn(w, &MCPProxy{Pos: p(11, 5), Intent: DefaultIntent()})
			m.KeyPos = map[string]fault.Position{"intent": p(12, 7)}
		}, []diag{{"USER.MCP_PROXY.NOT_ENABLED@11:5", `mcp_proxy of state "ask" is ignored: it does not say ` + "`enable: true`", "add `enable: true`"}}},
		{"a proxy with nothing to serve", func(w *Workflow) { proxyOn(w, &MCPProxy{Enable: true, Pos: p(11, 5), Intent: DefaultIntent()}) },
			[]diag{{"USER.MCP_PROXY.EMPTY_PROXY@11:5", `mcp_proxy of state "ask" would serve no tool`, "add `plugin_tools:`"}}},
		{"plugin name missing, at the entry", func(w *Workflow) {
			m := proxyOn(w, &MCPProxy{Enable: true, InterceptBuiltins: true, Pos: p(11, 5), Intent: DefaultIntent(),
				PluginTools: []PluginTools{{Plugin: "a", Expose: []string{"x"}}, {Plugin: " ", Expose: []string{"x"}}}})
			m.ValuePos = map[string]fault.Position{"plugin_tools[1]": p(14, 11)}
		}, []diag{{"USER.MCP_PROXY.MISSING_PLUGIN@14:11", `plugin_tools entry #2 of state "ask" names no plugin`, "add `plugin: <name>`"}}},
		{"plugin name missing, at its value", func(w *Workflow) {
			proxyOn(w, &MCPProxy{Enable: true, Pos: p(11, 5), Intent: DefaultIntent(), PluginTools: []PluginTools{{Expose: []string{"x"}, Pos: p(13, 19)}}})
		}, []diag{{"USER.MCP_PROXY.MISSING_PLUGIN@13:19", "entry #1", ""}}},
		{"no operation exposed, at the expose key", func(w *Workflow) {
			m := proxyOn(w, &MCPProxy{Enable: true, Pos: p(11, 5), Intent: DefaultIntent(), PluginTools: []PluginTools{{Plugin: "a", Pos: p(13, 19)}}})
			m.KeyPos = map[string]fault.Position{"enable": p(12, 7), "plugin_tools[0].expose": p(14, 11)}
			m.ValuePos = map[string]fault.Position{"plugin_tools[0]": p(13, 9)}
		}, []diag{{"USER.MCP_PROXY.EMPTY_EXPOSE@14:11", `plugin_tools entry #1 of state "ask" exposes no operation`, "list the operations to expose"}}},
		{"no operation exposed, at the entry", func(w *Workflow) {
			m := proxyOn(w, &MCPProxy{Enable: true, Pos: p(11, 5), Intent: DefaultIntent(), PluginTools: []PluginTools{{Plugin: "a", Pos: p(13, 19)}}})
			m.ValuePos = map[string]fault.Position{"plugin_tools[0]": p(13, 9)}
		}, []diag{{"USER.MCP_PROXY.EMPTY_EXPOSE@13:9", "", ""}}},
		{"an empty operation name, at its own position", func(w *Workflow) {
			proxyOn(w, &MCPProxy{Enable: true, Pos: p(11, 5), Intent: DefaultIntent(),
				PluginTools: []PluginTools{{Plugin: "a", Pos: p(13, 19), Expose: []string{"x", ""}, ExposePos: []fault.Position{p(14, 20), p(14, 23)}}}})
		}, []diag{{"USER.MCP_PROXY.EMPTY_EXPOSE@14:23", `plugin_tools entry #1 of state "ask" exposes an operation with an empty name`, "write the operation's name"}}},
		{"an empty operation name without its own position", func(w *Workflow) {
			m := proxyOn(w, &MCPProxy{Enable: true, Pos: p(11, 5), Intent: DefaultIntent(),
				PluginTools: []PluginTools{{Plugin: "a", Pos: p(13, 19), Expose: []string{"x", " "}, ExposePos: []fault.Position{p(14, 20)}}}})
			m.ValuePos = map[string]fault.Position{"plugin_tools[0].expose[1]": p(14, 30)}
		}, []diag{{"USER.MCP_PROXY.EMPTY_EXPOSE@14:30", "", ""}}},
		{"an empty allow list", func(w *Workflow) {
			m := proxyOn(w, &MCPProxy{Enable: true, InterceptBuiltins: true, Pos: p(11, 5), Intent: IntentSettings{Allow: []tool.Variant{}}})
			m.KeyPos = map[string]fault.Position{"intent.allow": p(13, 9)}
			m.ValuePos = map[string]fault.Position{"intent.allow": p(13, 16)}
		}, []diag{{"USER.MCP_PROXY.INVALID_INTENT@13:16", `intent.allow of state "ask" is empty`, "list at least one of read, write, destructive"}}},
		// Retry: each invalid field at its own value, all at once.
		{"retry fields at their values", func(w *Workflow) {
			s := w.States["build"]
			s.Retry = &retry.Policy{MaxAttempts: -1, Jitter: 2}
			wrote(s, "retry", p(6, 5), p(7, 7))
			wrote(s, "retry.max_attempts", p(7, 7), p(7, 21))
			wrote(s, "retry.jitter", p(8, 7), p(8, 15))
		}, []diag{
			{"USER.WORKFLOW.INVALID_RETRY@7:21", `^retry of state "build": max_attempts is -1`, "see the retry keys: max_attempts"},
			{"USER.WORKFLOW.INVALID_RETRY@8:15", `retry of state "build": jitter must be between 0.0 and 1.0`, "retryable_exit_codes"},
		}},
		{"a misspelt variant", func(w *Workflow) {
			m := proxyOn(w, &MCPProxy{Enable: true, InterceptBuiltins: true, Pos: p(11, 5), Intent: IntentSettings{Allow: []tool.Variant{"read", "wrte"}}})
			m.ValuePos = map[string]fault.Position{"intent.allow[1]": p(13, 23)}
		}, []diag{{"USER.MCP_PROXY.INVALID_INTENT@13:23", `intent.allow of state "ask" lists "wrte", which is not a variant`, "did you mean 'write'?"}}},
		{"ask lists a variant allow does not allow", func(w *Workflow) {
			m := proxyOn(w, &MCPProxy{Enable: true, InterceptBuiltins: true, Pos: p(11, 5),
				Intent: IntentSettings{Allow: []tool.Variant{"read", "write"}, Ask: []tool.Variant{"write", "destructive"}}})
			m.ValuePos = map[string]fault.Position{"intent.ask[1]": p(14, 20)}
		}, []diag{{"USER.MCP_PROXY.ASK_NOT_ALLOWED@14:20", `intent.ask of state "ask" lists "destructive", which intent.allow does not allow`, "add destructive to intent.allow"}}},
		{"ask lists a misspelt variant", func(w *Workflow) {
			m := proxyOn(w, &MCPProxy{Enable: true, InterceptBuiltins: true, Pos: p(11, 5),
				Intent: IntentSettings{Allow: tool.Variants, Ask: []tool.Variant{"destrutive"}}})
			m.ValuePos = map[string]fault.Position{"intent.ask[0]": p(14, 13)}
		}, []diag{{"USER.MCP_PROXY.INVALID_INTENT@14:13", `intent.ask of state "ask" lists "destrutive", which is not a variant`, "did you mean 'destructive'?"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := build()
			tt.mutate(w)
			expectDiags(t, Validate(w), tt.want)
		})
	}
}

func TestDuplicateHintWithoutALine(t *testing.T) {
	w := build()
	w.File = ""
	w.Inputs = append(w.Inputs, Input{Name: "target"})
	ds := Validate(w)
	if len(ds) != 1 || ds[0].Hint != "rename or remove one of them" {
		t.Fatalf("%v", ds)
	}
}

// expectDiags checks ds against want, in order: code and position exactly, message and hint by
// substring (a message starting with ^ must start the diagnostic's message).
func expectDiags(t *testing.T, ds fault.Diagnostics, want []diag) {
	t.Helper()
	if len(ds) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\n%v", len(ds), len(want), ds)
	}
	for i, w := range want {
		d := ds[i]
		if at := fmt.Sprintf("%s@%d:%d", d.Code, d.Line, d.Column); at != w.at {
			t.Errorf("diagnostic %d at %s, want %s: %v", i, at, w.at, d)
		}
		msg, prefix := strings.CutPrefix(w.msg, "^")
		if !strings.Contains(d.Message, msg) || prefix && !strings.HasPrefix(d.Message, msg) || !strings.Contains(d.Hint, w.hint) {
			t.Errorf("diagnostic %d:\n message %q\n hint    %q\nwant %q / %q", i, d.Message, d.Hint, w.msg, w.hint)
		}
	}
}
