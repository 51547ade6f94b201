// Package workflow is the model of an awf workflow: typed inputs, a state machine of command,
// agent and terminal states, and the per-step MCP proxy settings. Loading from YAML lives in
// infrastructure; the rules that need no file format live here.
package workflow

import (
	"time"

	"github.com/awf-dev/awf/internal/domain/retry"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// Workflow is a loaded workflow. Pos fields let validation point at the line a user must fix.
type Workflow struct {
	Name        string
	Description string
	// Version is free text the author may use to track changes; awf does not interpret it.
	Version string
	// Author and Tags describe the workflow for people and listings; awf does not interpret them.
	Author string
	Tags   []string
	// Env names the environment variables the workflow needs; a run refuses to start without
	// them (USER.ENV.MISSING) instead of failing halfway on an empty value.
	Env []string
	// Shell runs the workflow's command steps and hook commands (`shell:`, default /bin/sh); a
	// step may name its own. It must be a POSIX-like shell: commands read values as "${AWF_V_1}".
	Shell string
	// Timeout bounds the whole run ("" or 0: no bound): past it every running step is stopped
	// and the run fails with EXECUTION.RUN.TIMEOUT, so a stuck step cannot hold a CI job.
	Timeout time.Duration
	Inputs  []Input
	// Hooks run at the run's start and end (workflow_start, workflow_end, workflow_error,
	// workflow_cancel).
	Hooks WorkflowHooks
	// Outputs are the values the workflow hands back when another workflow calls it.
	Outputs []Output
	Initial string
	// States by name; Order keeps the file order for stable output.
	States map[string]*State
	Order  []string
	// File is the path the workflow was read from.
	File string
	// Pos records where keys were found, keyed by a dotted path such as "states.initial" or
	// "inputs[0].default"; list items are keyed "x[i]" at the item itself.
	Pos map[string]fault.Position
	// ValuePos records where the value of each key in Pos starts, for errors about a value.
	ValuePos map[string]fault.Position
}

// InputType is the declared type of an input.
type InputType string

// Input types.
const (
	InputString  InputType = "string"
	InputInteger InputType = "integer"
	InputBoolean InputType = "boolean"
	// InputNumber is a decimal number (float64), for values such as a threshold of 0.8.
	InputNumber InputType = "number"
	// InputArray is a list (InputList): given as JSON or comma-separated text, or by repeating
	// the flag; it renders as JSON so that for_each items and jq read it back.
	InputArray InputType = "array"
)

// Input is a declared workflow input.
type Input struct {
	Name        string
	Type        InputType
	Required    bool
	Default     any // string, int64, float64, bool or []any as decoded; nil when absent
	Description string
	// Validation holds the reference's `validation:` rules; nil when the input has none.
	Validation *InputRules
	Pos        fault.Position
}

// StateType is the kind of a state.
type StateType string

// State types. "step" is accepted in YAML as an alias of command.
const (
	StateCommand  StateType = "command"
	StateAgent    StateType = "agent"
	StateTerminal StateType = "terminal"
	StateParallel StateType = "parallel"
	StateForEach  StateType = "for_each"
	StateWhile    StateType = "while"
	// StateCallWorkflow runs another workflow as a sub-workflow.
	StateCallWorkflow StateType = "call_workflow"
	// StateOperation runs a built-in or plugin operation.
	StateOperation StateType = "operation"
)

// TerminalStatus is how a terminal state ends the run.
type TerminalStatus string

// Terminal statuses.
const (
	StatusSuccess TerminalStatus = "success"
	StatusFailure TerminalStatus = "failure"
)

// State is one node of the state machine: what every kind of state has, and one per-kind Spec
// for the rest, so that decoding, validation and execution each dispatch once on the kind.
type State struct {
	Name string
	// Type is the kind as written ("step" already resolved to command); an unknown word is kept
	// as written so validation can suggest a fix.
	Type        StateType
	Description string

	Timeout   time.Duration
	OnSuccess string
	OnFailure string
	// Retry runs a failed step again by its policy before any transition; nil runs it once.
	Retry *retry.Policy
	// Transitions are checked in order after the step, on success and on failure alike; the
	// first whose When holds (or that has none) gives the next state. Without a match the run
	// follows OnSuccess or OnFailure.
	Transitions []Transition
	// Hooks run before (pre) and after (post) the state's work.
	Hooks StepHooks

	// Spec holds what only this kind of state has: *CommandSpec, *AgentSpec, *TerminalSpec, or
	// *UnknownSpec for a state whose type is missing or unknown. A known-type state built in code
	// may leave it nil; it then reads as the kind's empty spec.
	Spec Spec

	// Pos is where the state's name is; KeyPos where each of its keys is, keyed by a dotted path
	// relative to the state ("provider", "options.model", "mcp_proxy.plugin_tools[0].plugin");
	// ValuePos where the value of each of those keys starts.
	Pos      fault.Position
	KeyPos   map[string]fault.Position
	ValuePos map[string]fault.Position
}

// MCPProxy is the per-step `mcp_proxy:` block (docs/design.md#the-mcp-proxy).
type MCPProxy struct {
	Enable            bool
	InterceptBuiltins bool // default true
	PluginTools       []PluginTools
	Intent            IntentSettings
	// EnvPassthrough names variables the step's Bash gets although their names mark them
	// secret (`env_passthrough: [GITHUB_TOKEN]`); their values are still masked in records.
	EnvPassthrough []string
	Sandbox        SandboxSettings // docs/decisions/0012-kernel-sandbox.md; DefaultSandbox when not written
	// Pos is where the `mcp_proxy` key is; KeyPos and ValuePos are keyed by paths relative to
	// the block ("enable", "intent.allow[1]", "plugin_tools[0].expose[2]").
	Pos      fault.Position
	KeyPos   map[string]fault.Position
	ValuePos map[string]fault.Position
}

// PluginTools exposes operations of one declared plugin as tools named <plugin>_<operation>.
// Pos is where the plugin name is written (the list item when the name is missing); ExposePos[i]
// is where Expose[i] is written.
type PluginTools struct {
	Plugin    string
	Expose    []string
	Pos       fault.Position
	ExposePos []fault.Position
}

// IntentSettings is the `intent:` block: how the intent rule applies to this step (docs/design.md#the-intent-rule).
type IntentSettings struct {
	Split                  bool
	Allow                  []tool.Variant // default all three
	StrictServerValidation bool           // default true
	RequireDeclaration     bool
	// Ask lists the variants whose calls wait for approval (`ask: [destructive]`); each must be
	// allowed too.
	Ask []tool.Variant
	// ApprovalTimeout is how long a held call waits before it is refused; 0 is the default
	// (toolset.DefaultApprovalTimeout).
	ApprovalTimeout time.Duration
}

// DefaultIntent is the intent block a step gets when it writes none.
func DefaultIntent() IntentSettings {
	return IntentSettings{Allow: append([]tool.Variant(nil), tool.Variants...), StrictServerValidation: true}
}

// Allows reports whether the step may use variant v.
func (s IntentSettings) Allows(v tool.Variant) bool {
	for _, a := range s.Allow {
		if a == v {
			return true
		}
	}
	return false
}

// Transition is one entry of a state's `transitions:`. When is an expression in the language of
// the reference awf (expr-lang), compiled at validate time; empty means always.
type Transition struct {
	When string
	Goto string
}
