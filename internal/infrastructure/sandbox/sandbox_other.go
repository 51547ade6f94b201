//go:build !linux

package sandbox

import (
	"errors"
	"os/exec"
)

// The sandbox is made of Linux kernel features only (docs/decisions/0012-kernel-sandbox.md):
// Landlock, user, mount, PID and network namespaces, a private /proc. Elsewhere (macOS) there is
// nothing to enforce it with, so every probe says so and nothing that would start a helper
// does: mode auto then runs Bash unconfined with the warning, as on a Linux kernel without
// Landlock, and mode required fails the step (USER.SANDBOX.UNAVAILABLE). No call ever runs
// unconfined in place of a sandboxed one.

// unavailable is the reason given for every refusal here.
const unavailable = "the Bash sandbox needs Linux (Landlock and user namespaces)"

// KernelCan says whether the kernel lets this user sandbox: never outside Linux.
func KernelCan() error { return errors.New(unavailable) }

// ABI is the kernel's Landlock ABI version: 0 outside Linux, which has no Landlock.
func ABI() int { return 0 }

// Probe reports that the sandbox cannot be enforced outside Linux, with the reason the Bash
// tool prints (mode auto) or fails the step with (mode required).
func Probe(string) Status { return Status{Reason: unavailable} }

// UseProbeCache does nothing outside Linux: Probe's answer there is negative, and negative
// answers are never kept.
func UseProbeCache(string) {}

// StartSpare always fails outside Linux: the helper's namespaces and Landlock do not exist, and
// a call must never run unconfined in place of a sandboxed one.
func StartSpare(self, dir string, network bool) (*Spare, error) {
	return nil, errors.New(unavailable)
}

// CloseProcToChildren fails outside Linux: there is no /proc and no dumpable flag to clear, so
// the caller's children are not kept from its environment by this call.
func CloseProcToChildren() error {
	return errors.New("closing the process to its children (PR_SET_DUMPABLE) needs Linux")
}

// StartMapped is cmd.Start outside Linux: there are no user namespaces, so no id maps for the
// parent to write and no dumpable flag to restore for them.
func StartMapped(cmd *exec.Cmd) error { return cmd.Start() }
