package plugins

// Codes of plugins.yaml problems and of plugin processes. The USER.MCP_PROXY.* codes a workflow
// reports (unknown or disabled plugin, unknown operation) are in internal/domain/ports.
const (
	// plugins.yaml.
	CodeManifestInvalid    = "USER.PLUGINS.INVALID"         // the file has problems, listed as diagnostics
	CodeManifestUnreadable = "USER.PLUGINS.UNREADABLE"      // exists but cannot be read
	CodeUnknownKey         = "USER.PLUGINS.UNKNOWN_KEY"     // a key plugins.yaml does not know
	CodeInvalidValue       = "USER.PLUGINS.INVALID_VALUE"   // a value of the wrong kind
	CodeInvalidName        = "USER.PLUGINS.INVALID_NAME"    // a plugin name that cannot prefix tool names
	CodeMissingCommand     = "USER.PLUGINS.MISSING_COMMAND" // a plugin without command
	CodeYAMLSyntax         = "USER.YAML.SYNTAX"
	CodeDuplicateKey       = "USER.YAML.DUPLICATE_KEY"

	// Processes and calls.
	CodeCommandNotFound = "USER.PLUGINS.COMMAND_NOT_FOUND" // command does not exist or is not executable
	CodeInitFailed      = "USER.PLUGINS.INIT_FAILED"       // the plugin rejected its config
	CodeStartFailed     = "EXECUTION.PLUGIN.START_FAILED"  // the process did not start or handshake in time
	CodeCrashed         = "EXECUTION.PLUGIN.CRASHED"       // the process died during a call
	CodeCrashLoop       = "EXECUTION.PLUGIN.CRASH_LOOP"    // it died too often; no more restarts
	CodeCallFailed      = "EXECUTION.PLUGIN.CALL_FAILED"   // the RPC failed for another reason
	CodeClosed          = "EXECUTION.PLUGIN.CLOSED"        // the host was closed (the step ended)
)
