// Package cli is the one agent provider for the four agent CLIs (claude, gemini, codex,
// opencode): finding the CLI's binary, checking a step's options, writing the run's private
// config files, running the CLI in its own process group so that nothing it starts outlives the
// step, and turning what it left behind into a step result or a clear coded error.
//
// A CLI's package supplies only what differs per CLI, as a Spec: binary and install command,
// the option table (package options), what stays beside the proxy when built-ins cannot all be
// switched off, a Plan (command line, environment, private files) built from the step, and a
// parser for the CLI's JSON output. Provider (New) runs any Spec the same way.
//
// Two rules hold for every provider. awf never writes a user's own CLI configuration
// (.mcp.json, ~/.claude.json, .gemini/settings.json, ~/.codex, opencode.json): everything a run
// needs goes into files under the step's private directory (ports.ProxyAttachment.TempDir, or a
// temporary directory of the provider's own when the step has no proxy). And a CLI must not
// leave processes behind, whether it exits or is stopped.
//
// Run therefore does its own supervision on top of process.Prepare and process.KillGroup
// rather than process.Wait, for two reasons measured with the real CLIs. process.Wait sends
// SIGKILL to the group the moment its leader exits, which would kill the CLI's MCP server
// (awf mcp-serve) while it flushes its spans on stdin EOF: here stragglers get Linger to leave
// on their own first, then SIGTERM, Grace, SIGKILL. And codex starts its MCP server in a
// process group of its own, out of reach of a signal to the CLI's group: Run watches /proc
// while the CLI runs and signals every group its descendants moved into as well.
package cli
