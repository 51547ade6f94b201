// Package confine is the Bash sandbox's helper, the child side of package sandbox: awf's own
// binary re-executed as `awf __sandbox-exec <policy> -- <command>` confines itself (read-only
// mounts, a private /proc, no capabilities, Landlock) and runs the command as its only child.
//
// It imports nothing but os, os/signal, syscall, unsafe and runtime (TestImports holds it to
// that), so its init runs right after those packages are initialised, before the gRPC,
// OpenTelemetry, protobuf and expr packages of the CLI: Go initialises the lexically first
// package whose imports are ready, and every heavier dependency (encoding/json, fmt,
// path/filepath, x/sys/unix, os/exec) would let dozens of those go first. Each Bash call pays
// this package's start-up, not the CLI's (about 4 ms on the reference machine).
package confine

import "os"

// HelperArg is the hidden first argument that makes awf's binary act as the helper.
const HelperArg = "__sandbox-exec"

// init runs the helper as soon as this package is initialised, when the binary was started as
// one; it never returns then.
func init() {
	if len(os.Args) > 1 && os.Args[1] == HelperArg {
		os.Exit(Main(os.Args[2:]))
	}
}
