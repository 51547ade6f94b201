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
// Run therefore starts the CLI under a reaper (process.StartLingering): a subreaper that keeps
// every process the CLI starts below it, setsid and double-forked ones included, so that they
// all end with the step. It does not use process.Run, for a reason measured with the real CLIs:
// a reaper there SIGKILLs the tree the moment the command exits, which would kill the CLI's
// MCP server (awf mcp-serve) while it flushes its spans on stdin EOF; here stragglers get
// Linger to leave on their own first, then SIGTERM, Grace, SIGKILL, and the reaper reports the
// CLI's own exit as soon as it happens. Where no reaper can run (no /proc/self/exe), Run falls
// back to watching /proc while the CLI runs and signalling every process group its descendants
// moved into (codex starts its MCP server in a group of its own).
package cli
