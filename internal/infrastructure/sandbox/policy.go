// Package sandbox confines one Bash call with what the kernel enforces (issue 12): a small
// helper, awf's own binary re-executed as `awf __sandbox-exec`, starts in fresh user, mount and
// PID namespaces (and a network namespace when the step turns the network off), makes awf's
// protected paths read-only with bind mounts, mounts a /proc that shows only the sandbox's own
// processes, restricts itself with Landlock, drops every capability and then execs the shell.
// Landlock restricts the calling process and its future children, so it is applied in the
// helper, never in mcp-serve itself. Nothing is half-applied: if any step fails, the helper
// exits with an error and the command never runs.
package sandbox

import (
	"encoding/json"
	"fmt"
)

// HelperArg is the hidden first argument that makes awf's binary act as the helper; cmd/awf
// checks it before anything else so the helper costs no CLI start-up.
const HelperArg = "__sandbox-exec"

// policyEnv carries the JSON policy from mcp-serve to the helper; the helper removes it before
// it execs the shell.
const policyEnv = "AWF_SANDBOX_POLICY"

// Modes of a step's `mcp_proxy.sandbox.mode`.
const (
	ModeAuto     = "auto"     // enforce when the kernel can, else run as before with a warning
	ModeRequired = "required" // fail the step before the agent starts when it cannot
	ModeOff      = "off"      // never sandbox
)

// Policies, one per tool variant.
const (
	PolicyRead        = "read"        // no writes but /dev/null and the private temp directory
	PolicyWrite       = "write"       // writes under the root, the temp directory and writable
	PolicyDestructive = "destructive" // as write: the kernel cannot tell deleting from writing
)

// Settings are a step's `mcp_proxy.sandbox` block as mcp-serve receives it.
type Settings struct {
	Mode     string   `json:"mode"`
	Network  bool     `json:"network"`
	Writable []string `json:"writable"`
}

// DefaultSettings are the settings of a step that says nothing: enforce when possible, network on.
func DefaultSettings() Settings { return Settings{Mode: ModeAuto, Network: true, Writable: []string{}} }

// Policy is everything the helper applies to one call.
type Policy struct {
	Policy    string   `json:"policy"`    // PolicyRead, PolicyWrite or PolicyDestructive
	Root      string   `json:"root"`      // the step's root: writable under write/destructive
	TmpDir    string   `json:"tmp_dir"`   // the call's private temp directory: always writable
	Writable  []string `json:"writable"`  // extra writable paths under write/destructive
	Protected []string `json:"protected"` // never writable, whatever the policy
	Network   bool     `json:"network"`   // false: a network namespace with no interface up
	Probe     bool     `json:"probe"`     // apply everything, then exit 0 without a command
}

// Encode is the policy as the helper reads it.
func (p Policy) Encode() (string, error) {
	b, err := json.Marshal(p)
	return string(b), err
}

// decodePolicy reads the helper's policy strictly.
func decodePolicy(s string) (Policy, error) {
	var p Policy
	if s == "" {
		return p, fmt.Errorf("no policy given (%s is empty)", policyEnv)
	}
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		return p, fmt.Errorf("policy is not valid JSON: %v", err)
	}
	switch p.Policy {
	case PolicyRead, PolicyWrite, PolicyDestructive:
	default:
		return p, fmt.Errorf("unknown policy %q", p.Policy)
	}
	if p.TmpDir == "" || p.Root == "" {
		return p, fmt.Errorf("policy without root or tmp_dir")
	}
	return p, nil
}

// writablePaths are the paths a call under p may write: its temp directory, and under write and
// destructive the root and the extra writable paths.
func (p Policy) writablePaths() []string {
	out := []string{p.TmpDir}
	if p.Policy != PolicyRead {
		out = append(out, p.Root)
		out = append(out, p.Writable...)
	}
	return out
}
