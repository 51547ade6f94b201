package workflow

// SandboxSettings is a step's `mcp_proxy.sandbox` block (docs/decisions/0012-kernel-sandbox.md): how the kernel confines the
// step's Bash calls.
type SandboxSettings struct {
	// Mode is auto (enforce when the kernel can), required (fail the step before the agent
	// starts when it cannot) or off.
	Mode string
	// Network false gives Bash calls no network.
	Network bool
	// Egress, when set (network written as {allow, deny}), gives them only what it allows;
	// Network is then false.
	Egress *Egress
	// Writable lists extra paths write and destructive Bash calls may write, relative to the
	// step's root or absolute.
	Writable []string
	// Readable lists credential stores and agent sockets the sandbox hides by default that the
	// step's Bash calls may read all the same ("~/.npmrc"; "~/", $VAR and root-relative forms).
	Readable []string
}

// DefaultSandbox is the block a step gets when it writes none.
func DefaultSandbox() SandboxSettings { return SandboxSettings{Mode: "auto", Network: true} }
