package ports

import (
	"context"
	"encoding/json"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// CommandRequest is one command step, already interpolated.
type CommandRequest struct {
	Command string
	Dir     string
	Env     []string
	// Script marks Command as the content of a script_file: when it starts with a `#!` line the
	// runner executes it as its own program (from a private temp file, removed afterwards), so
	// the kernel picks the interpreter; without one it runs through the shell like a command.
	Script bool
	// Shell runs Command ("" is /bin/sh): a POSIX-like shell, the step's or workflow's `shell:`.
	Shell string
	// Values are the NAME=value entries Command's references read ("${AWF_V_1}"), set for this
	// command only, after Env: values reach the shell beside the code, never inside it. A runner
	// drops inherited variables of the same prefix first.
	Values []string
	// Shown is Command as people read it, each value in its place, escaped (logs, messages,
	// test doubles). It is never run.
	Shown string
	// Live, when set, is called with each line of the command's output as the command writes
	// it (stderr true for its standard error), without the newline, so the console can show a
	// long step while it runs. A line without a newline at the end comes when the command
	// ends; an over-long line comes in pieces. Calls for stdout and stderr may come from two
	// goroutines at once. The result still holds the whole output.
	Live func(stderr bool, line string)
}

// CommandResult is what a finished command left behind. A non-zero exit is a result, not an
// error: the runner turns it into a failed step and follows on_failure.
type CommandResult struct {
	Stdout   string
	Stderr   string
	ExitCode int
}

// CommandRunner runs shell commands. It must kill the command's whole process group when ctx
// ends (step timeout or Ctrl+C) and return an error wrapping ctx's cause.
type CommandRunner interface {
	RunCommand(ctx context.Context, req CommandRequest) (CommandResult, error)
}

// AgentRequest is one agent step, already interpolated.
type AgentRequest struct {
	RunID    string
	Step     string
	Provider string
	Prompt   string
	// SystemPrompt is the step's system_prompt, rendered; "" when it has none.
	SystemPrompt string
	Options      map[string]any
	Dir          string
	Timeout      time.Duration
	Proxy        *workflow.MCPProxy
	// Tools is the in-process tool session for providers that call tools themselves (the
	// OpenAI-compatible provider); nil when the step has no proxy or the CLI spawns mcp-serve.
	Tools ToolSession
	// Attach tells a CLI provider how to spawn `awf mcp-serve` for this step; nil without a proxy.
	Attach *ProxyAttachment
	// Session is the conversation this call continues (conversation.continue_from, or the
	// previous turn of a `mode: conversation` step); nil starts a new one.
	Session *AgentSession
	// KeepSession is set for a step that keeps its session (a `conversation:` block or `mode:
	// conversation`): a later turn or step may continue it, so a CLI that runs with a private
	// home must keep that home for the run instead of removing it after the call.
	KeepSession bool
	// SessionDir is a private directory that lives as long as the run (removed when it ends),
	// where CLI providers keep the private homes of sessions a later call may continue; "" when
	// the caller has none, and such a session cannot be continued.
	SessionDir string
}

// ProxyAttachment is what a CLI provider needs to make its CLI spawn the step's proxy.
type ProxyAttachment struct {
	// ServerName is the MCP server's name as the CLI will know it (tools become mcp__<name>__X, …).
	ServerName string
	// Command and Args spawn the proxy: the awf binary, "mcp-serve", "--config", <file>.
	Command string
	Args    []string
	// Tools are the tool names the proxy will list, for CLIs that grant permissions by name.
	Tools []string
	// InterceptBuiltins asks the provider to switch the CLI's own tools off where it can.
	InterceptBuiltins bool
	// TempDir is a private per-step directory (0700) for the CLI's config files; removed by awf.
	TempDir string
}

// AgentSession is a conversation an agent can continue (see runrecord.Session, where it is
// defined so that a run's record can keep it).
type AgentSession = runrecord.Session

// SessionMessage is one text turn of a conversation.
type SessionMessage = runrecord.Message

// AgentResult is what an agent step produced: the final answer plus what the CLI reported.
type AgentResult struct {
	Output       string
	InputTokens  int
	OutputTokens int
	CostUSD      float64
	SessionID    string
}

// TurnSource gives a `mode: conversation` step its next user message: it shows the agent's
// reply, then reads what the user answers. ok is false when the user ends the conversation (an
// empty line, exit, quit, end of input) or ctx ends.
type TurnSource interface {
	NextTurn(ctx context.Context, step, reply string) (message string, ok bool)
}

// AgentProvider runs one agent step on one kind of agent (a CLI or an HTTP endpoint).
type AgentProvider interface {
	Name() string
	Run(ctx context.Context, req AgentRequest) (AgentResult, error)
}

// PromptSource reads the prompt files agent steps name with `prompt_file`. It refuses anything
// but a regular file (a FIFO would block, a device never end), bounds how much it reads, and
// returns when ctx ends. Its errors are coded and say what to do.
type PromptSource interface {
	ReadPrompt(ctx context.Context, path string) (string, error)
}

// ConfinedFiles reads the files templates name with readFile: path is relative to root and
// must stay inside it once symlinks are resolved; only regular files, bounded in size, and the
// read stops when ctx ends. Its errors are coded and name the path.
type ConfinedFiles interface {
	ReadConfined(ctx context.Context, root, path string) (string, error)
}

// WorkflowRepository finds and loads workflow files. Load reports every problem in the file as a
// diagnostic with its position; its error is for when there is no file to read at all.
type WorkflowRepository interface {
	Resolve(nameOrPath string) (string, error)
	Load(path string) (*workflow.Workflow, fault.Diagnostics, error)
}

// ToolSession is the set of tools one agent step may call, already shaped by the step's intent
// settings (allow list, split mode). Every call goes through the one router, so it is checked,
// traced, logged and recorded whatever the agent.
type ToolSession interface {
	ListTools() []tool.Definition
	CallTool(ctx context.Context, name string, args json.RawMessage) tool.Result
}
