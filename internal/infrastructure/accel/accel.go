// Package accel says which accelerators of awf's MCP path are switched on. An accelerator is a
// shortcut beside a reference path (the go-sdk's own, the standard library's) that answers the
// same bytes faster; each one is on unless the environment variable AWF_ACCEL_OFF names it, so a
// benchmark, or a user who suspects one, can compare the two paths in the same binary. The
// variable rides through agent CLIs to `awf-serve` and on to `awf mcp-serve`, unlike a flag.
package accel

import (
	"os"
	"strings"
)

// EnvOff is the environment variable listing the accelerators switched off: names separated by
// commas, or "all".
const EnvOff = "AWF_ACCEL_OFF"

// The accelerators, by the name EnvOff knows them by.
const (
	// MCPDirect is pkg/mcpserver's direct tools/call path (mcpserver.AccelDirect).
	MCPDirect = "mcp-direct"
	// BridgeRaw is the raw tools/call client for bridged stdio MCP servers (package
	// tools/mcpbridge/rawcall), beside the go-sdk's client.
	BridgeRaw = "bridge-raw"
)

// On reports whether the accelerator name is switched on in this process's environment.
func On(name string) bool { return OnIn(os.Getenv(EnvOff), name) }

// OnIn reports whether name is switched on when EnvOff holds off.
func OnIn(off, name string) bool {
	for _, n := range strings.Split(off, ",") {
		if n = strings.TrimSpace(n); n == name || n == "all" {
			return false
		}
	}
	return true
}
