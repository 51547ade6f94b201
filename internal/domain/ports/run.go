package ports

import (
	"context"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// CommandRequest is one command step, already interpolated.
type CommandRequest struct {
	Command string
	Dir     string
	Env     []string
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
	Options  map[string]any
	Dir      string
	Timeout  time.Duration
	Proxy    *workflow.MCPProxy
}

// AgentResult is what an agent step produced: the final answer plus what the CLI reported.
type AgentResult struct {
	Output       string
	InputTokens  int
	OutputTokens int
	CostUSD      float64
	SessionID    string
}

// AgentProvider runs one agent step on one kind of agent (a CLI or an HTTP endpoint).
type AgentProvider interface {
	Name() string
	Run(ctx context.Context, req AgentRequest) (AgentResult, error)
}

// WorkflowRepository finds and loads workflow files. Load reports every problem in the file as a
// diagnostic with its position; its error is for when there is no file to read at all.
type WorkflowRepository interface {
	Resolve(nameOrPath string) (string, error)
	Load(path string) (*workflow.Workflow, fault.Diagnostics, error)
}
