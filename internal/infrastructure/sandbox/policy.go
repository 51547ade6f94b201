// Package sandbox confines one Bash call with what the kernel enforces (docs/decisions/0012-kernel-sandbox.md): a small
// helper, awf's own binary re-executed as `awf __sandbox-exec` from a descriptor opened at
// start-up, starts in fresh user, mount and PID namespaces (and a network namespace when the
// step turns the network off) as the caller's uid with only the capabilities its mounts need,
// makes awf's protected paths read-only with bind mounts (pinning their ancestors, so they
// cannot be moved, and covering missing ones, so they cannot be created), mounts a /proc that
// shows only the sandbox's own processes, restricts itself with Landlock, drops every
// capability and then execs the shell. Landlock restricts the calling process and its future
// children, so it is applied in the helper, never in mcp-serve itself. Nothing is
// half-applied: if any step fails, the helper exits with an error and the command never runs.
//
// The helper is started before its call (a Spare: namespaces made, Go runtime up, waiting on a
// pipe) and applies the call's policy only when the call arrives, so a Bash call does not wait
// for a Go binary to start; each spare still serves exactly one call.
package sandbox

import "github.com/awf-dev/awf/internal/infrastructure/sandbox/confine"

// HelperArg is the hidden first argument that makes awf's binary act as the helper; package
// confine's init checks it before the CLI's packages are initialised.
const HelperArg = confine.HelperArg

// Main is the helper's body (confine.Main), for a binary that wants to call it itself.
func Main(args []string) int { return confine.Main(args) }

// Modes of a step's `mcp_proxy.sandbox.mode`.
const (
	ModeAuto     = "auto"     // enforce when the kernel can, else run as before with a warning
	ModeRequired = "required" // fail the step before the agent starts when it cannot
	ModeOff      = "off"      // never sandbox
)

// Policies, one per tool variant.
const (
	PolicyRead        = confine.PolicyRead
	PolicyWrite       = confine.PolicyWrite
	PolicyDestructive = confine.PolicyDestructive
)

// Settings are a step's `mcp_proxy.sandbox` block as mcp-serve receives it.
type Settings struct {
	Mode     string   `json:"mode"`
	Network  bool     `json:"network"`
	Writable []string `json:"writable"`
	// Readable are hidden paths (HiddenPaths) the step opens on purpose.
	Readable []string `json:"readable,omitempty"`
	// Egress, when set, is the step's network allow and deny lists: Bash runs without network
	// but for awf's egress proxy (ProxyEnv); Network is then false.
	Egress *Egress `json:"egress,omitempty"`
}

// DefaultSettings are the settings of a step that says nothing: enforce when possible, network on.
func DefaultSettings() Settings { return Settings{Mode: ModeAuto, Network: true, Writable: []string{}} }

// Policy is everything the helper applies to one call.
type Policy = confine.Policy
