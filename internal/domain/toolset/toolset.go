// Package toolset says what one agent step's tool proxy serves and how it reports back: the
// root the file tools are confined to, whether the built-in tools are on, the plugin operations
// exposed, the intent rule's settings, the labels of its records and the variables Bash must not
// see. It is the concept only; the file an `awf mcp-serve` subprocess reads is an encoding of it
// kept in infrastructure.
package toolset

import (
	"time"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// Spec is everything a step's proxy needs to serve the step's tools, in process or in an
// `awf mcp-serve` subprocess, and to report back to the run that started it.
type Spec struct {
	// Root confines the file tools; absolute. Empty means the serving process's directory.
	Root string
	// Builtins serves awf's six built-in tools (Read, Write, Edit, Bash, Glob, Grep).
	Builtins bool
	// PluginTools lists plugin operations to expose as <plugin>_<operation>.
	PluginTools []PluginTools
	// Intent is the intent rule's settings for the step.
	Intent Intent
	// ActivityFile receives one record per call; empty records nothing.
	ActivityFile string
	// LogFile receives the server's log lines.
	LogFile string
	// ReadyFile is written once the server serves, so the step can prove the proxy ran.
	ReadyFile string
	// ApprovalsDir is where calls held for approval (Intent.Ask) wait for a decision: the run
	// directory's approvals/, which `awf serve` and `awf run` watch. Empty with Intent.Ask set
	// refuses held calls at once (nobody could answer).
	ApprovalsDir string
	// RunID and Step label records, spans and log lines.
	RunID string
	Step  string
	// PluginsFile is the plugins.yaml the plugin declarations come from.
	PluginsFile string
	// PluginCommands are the resolved executables of the plugins PluginsFile declares, which no
	// tool may change. The parent awf resolves them when it writes the config, so the serving
	// process need not parse plugins.yaml (nor link the plugin host) to protect them. nil means
	// not resolved; empty, that none are declared.
	PluginCommands []string
	// BashEnv, when non-nil, is the exact environment of the Bash tool; otherwise the serving
	// process's environment minus agent credentials and HideEnv.
	BashEnv []string
	// HideEnv names more variables Bash must not see, such as the one a step's api_key_env
	// names: the agent could otherwise print the step's model key.
	HideEnv []string
	// EnvPassthrough names variables handed to Bash although their names mark them secret
	// (`mcp_proxy.env_passthrough`): a step that needs GITHUB_TOKEN says so. Their values are
	// still masked in every record.
	EnvPassthrough []string
	// OTelEnv carries the run's OTEL_* variables: some CLIs (codex) give their MCP servers only
	// HOME, LANG, PATH and TERM, and tool-call spans must still reach the run's collector.
	OTelEnv map[string]string
	// Sandbox is how the kernel confines Bash (docs/decisions/0012-kernel-sandbox.md); the zero value means the defaults
	// (mode auto, network on).
	Sandbox Sandbox
	// Traceparent (W3C) makes the tool-call spans children of the step's span across the
	// process boundary.
	Traceparent string
}

// Binaries that serve a step's proxy: the slim one serves built-in tools; only awf links plugin
// tools (the gRPC plugin host, MCP plugins declared in YAML) and span export (the OTLP
// exporters).
const (
	SlimBinary = "awf-serve"
	AWFBinary  = "awf"
)

// Binary is the binary that must serve the step: AWFBinary when it has plugin tools, OTel
// variables to export spans with, or plugin commands still to resolve from its plugins file;
// SlimBinary otherwise. The parent decides it from the Spec it writes, and writes the answer
// into the config, so that the slim binary knows before reading the rest whether it may start
// answering the client at once.
func (s Spec) Binary() string {
	if len(s.PluginTools) > 0 || len(s.OTelEnv) > 0 || s.PluginsFile != "" && s.PluginCommands == nil {
		return AWFBinary
	}
	return SlimBinary
}

// PluginTools exposes operations of one declared plugin.
type PluginTools struct {
	Plugin string
	Expose []string
}

// Intent is how the intent rule applies to the step's calls (docs/design.md#the-intent-rule).
type Intent struct {
	// Split exposes retrieve_tools and call_tool_read/write/destructive instead of each tool.
	Split bool
	// Allow lists the variants the step may use; nil means all three, empty means none.
	Allow []tool.Variant
	// Strict refuses calls whose variant contradicts the tool's annotations; false only warns.
	Strict bool
	// RequireDeclaration makes intent.operation_type mandatory on split calls.
	RequireDeclaration bool
	// Ask lists the variants whose calls wait for someone to approve them (intent.ask); each
	// must also be allowed. Empty: no call waits.
	Ask []tool.Variant
	// ApprovalTimeout is how long a held call waits before it is refused; 0 means
	// DefaultApprovalTimeout.
	ApprovalTimeout time.Duration
}

// DefaultApprovalTimeout is how long a held call waits when the step sets no approval_timeout:
// long enough for someone watching to answer, short enough that a headless run is not stuck.
const DefaultApprovalTimeout = 5 * time.Minute

// DefaultIntent is the rule for a proxy whose step says nothing: direct exposure, every variant,
// strict server validation, no mandatory declaration.
func DefaultIntent() Intent { return Intent{Strict: true} }

// Ready is what a serving proxy reports once it serves: which process serves, and which tools
// it lists. The step that spawned the agent reads it to prove the proxy really ran and to stop
// the process if it outlives its agent.
type Ready struct {
	PID   int
	Tools []string
}

// Sandbox is a step's mcp_proxy.sandbox block as the proxy receives it.
type Sandbox struct {
	Mode     string // auto (also when empty), required or off
	Network  bool
	Writable []string // absolute, or relative to Root
	Readable []string // hidden paths opened on purpose: "~/", $VAR, absolute or relative to Root
	// Egress is the network allow and deny lists (Network false then): nil for all or nothing.
	Egress *Egress
}

// Egress is a step's `mcp_proxy.sandbox.network: {allow, deny}` (docs/decisions/0028-egress-proxy.md).
type Egress struct {
	Allow []string
	Deny  []string
}

// DefaultSandbox is the sandbox of a step that says nothing.
func DefaultSandbox() Sandbox { return Sandbox{Mode: "auto", Network: true} }
