package fault

// Codes of the EXECUTION category (exit 3). Each code is written here once; every other
// package names it through these constants. Codes are a public contract: scripts and editor
// integrations match on them, so a released code is never renamed.
const (
	// EXECUTION.AGENT
	ExecutionAgentAuth = "EXECUTION.AGENT.AUTH"
	// ExecutionAgentBadOutput: the CLI exited 0 but its output is not the JSON awf asked for.
	ExecutionAgentBadOutput  = "EXECUTION.AGENT.BAD_OUTPUT"
	ExecutionAgentBadRequest = "EXECUTION.AGENT.BAD_REQUEST"
	ExecutionAgentCancelled  = "EXECUTION.AGENT.CANCELLED"
	// ExecutionAgentCLIFailed: the CLI exited non-zero without saying why in its JSON output.
	ExecutionAgentCLIFailed = "EXECUTION.AGENT.CLI_FAILED"
	// ExecutionAgentCLINotFound: the CLI's binary is not installed where awf looked.
	ExecutionAgentCLINotFound = "EXECUTION.AGENT.CLI_NOT_FOUND"
	// ExecutionAgentError: the CLI reported the run failed (an API error, a failed turn).
	ExecutionAgentError              = "EXECUTION.AGENT.ERROR"
	ExecutionAgentHTTP               = "EXECUTION.AGENT.HTTP"
	ExecutionAgentHTTPStatus         = "EXECUTION.AGENT.HTTP_STATUS"
	ExecutionAgentIncompleteResponse = "EXECUTION.AGENT.INCOMPLETE_RESPONSE"
	ExecutionAgentMalformedResponse  = "EXECUTION.AGENT.MALFORMED_RESPONSE"
	ExecutionAgentNotFound           = "EXECUTION.AGENT.NOT_FOUND"
	// ExecutionAgentPermissionDenied: the CLI refused tool calls the model made (Claude's permission_denials): the agent ran without tools it needed, which must not pass silently.
	ExecutionAgentPermissionDenied    = "EXECUTION.AGENT.PERMISSION_DENIED"
	ExecutionAgentProviderUnavailable = "EXECUTION.AGENT.PROVIDER_UNAVAILABLE"
	ExecutionAgentRateLimited         = "EXECUTION.AGENT.RATE_LIMITED"
	ExecutionAgentRequestTimeout      = "EXECUTION.AGENT.REQUEST_TIMEOUT"
	ExecutionAgentServerError         = "EXECUTION.AGENT.SERVER_ERROR"
	// ExecutionAgentSetup: awf could not prepare the run (private files, working directory).
	ExecutionAgentSetup = "EXECUTION.AGENT.SETUP"
	// ExecutionAgentStopped: the step's context ended (timeout or Ctrl+C) and the CLI was stopped.
	ExecutionAgentStopped     = "EXECUTION.AGENT.STOPPED"
	ExecutionAgentUnreachable = "EXECUTION.AGENT.UNREACHABLE"

	// EXECUTION.COMMAND
	ExecutionCommandStart = "EXECUTION.COMMAND.START"

	// EXECUTION.MCP_PROXY
	ExecutionMCPProxyListToolsFailed = "EXECUTION.MCP_PROXY.LIST_TOOLS_FAILED"
	ExecutionMCPProxyNotServed       = "EXECUTION.MCP_PROXY.NOT_SERVED"

	// EXECUTION.PLUGIN
	// ExecutionPluginCallFailed: the RPC failed for another reason
	ExecutionPluginCallFailed = "EXECUTION.PLUGIN.CALL_FAILED"
	// ExecutionPluginClosed: the host was closed (the step ended)
	ExecutionPluginClosed = "EXECUTION.PLUGIN.CLOSED"
	// ExecutionPluginCrashed: the process died during a call
	ExecutionPluginCrashed = "EXECUTION.PLUGIN.CRASHED"
	// ExecutionPluginCrashLoop: it died too often; no more restarts
	ExecutionPluginCrashLoop = "EXECUTION.PLUGIN.CRASH_LOOP"
	// ExecutionPluginStartFailed: the process did not start or handshake in time
	ExecutionPluginStartFailed = "EXECUTION.PLUGIN.START_FAILED"

	// EXECUTION.RUN
	ExecutionRunMaxSteps = "EXECUTION.RUN.MAX_STEPS"
	// ExecutionRunTimeout: the run went past the workflow's timeout; every step was stopped.
	ExecutionRunTimeout = "EXECUTION.RUN.TIMEOUT"

	// EXECUTION.STEP
	ExecutionStepTimeout = "EXECUTION.STEP.TIMEOUT"

	// EXECUTION.HOOK
	// ExecutionHookFailed: a workflow_start hook failed, so the run did not start.
	ExecutionHookFailed = "EXECUTION.HOOK.FAILED"
	// Control flow at run time.
	// ExecutionLoopItems: for_each items that are not a JSON list at run time, or more items than the cap.
	ExecutionLoopItems = "EXECUTION.LOOP.ITEMS"
	// ExecutionLoopMaxIterations: a computed max_iterations that is not a whole number from 1 to the cap.
	ExecutionLoopMaxIterations = "EXECUTION.LOOP.MAX_ITERATIONS"
	// ExecutionLoopBodyFailed: a body state failed and no transition of it handled the failure.
	ExecutionLoopBodyFailed = "EXECUTION.LOOP.BODY_FAILED"
	// ExecutionLoopCondition: a while condition that gave no true or false.
	ExecutionLoopCondition = "EXECUTION.LOOP.CONDITION"
	// ExecutionParallelFailed: a parallel state whose branches failed by its strategy.
	ExecutionParallelFailed = "EXECUTION.PARALLEL.FAILED"
	// ExecutionParallelCancelled: a branch stopped because its parallel state had decided (first failure or first success).
	ExecutionParallelCancelled = "EXECUTION.PARALLEL.CANCELLED"
	// EXECUTION.TOOL (recorded in the activity record's code)
	// ExecutionToolFailed: the tool ran and reported an error, or its provider failed.
	ExecutionToolFailed = "EXECUTION.TOOL.FAILED"
	// ExecutionToolCancelled: the call was stopped before it finished (step end, timeout, Ctrl+C).
	ExecutionToolCancelled = "EXECUTION.TOOL.CANCELLED"
	// ExecutionToolApprovalDenied: a call held for approval (intent.ask) was denied.
	ExecutionToolApprovalDenied = "EXECUTION.TOOL.APPROVAL_DENIED"
	// ExecutionToolApprovalTimeout: nobody decided on a held call within approval_timeout.
	ExecutionToolApprovalTimeout = "EXECUTION.TOOL.APPROVAL_TIMEOUT"
	// ExecutionAgentEventTooLarge: one server-sent event's data: lines add up past the cap (a hostile or broken endpoint).
	ExecutionAgentEventTooLarge = "EXECUTION.AGENT.EVENT_TOO_LARGE"
	// EXECUTION.CALL
	// ExecutionCallDepth: call_workflow states nested deeper than the limit (10)
	ExecutionCallDepth = "EXECUTION.CALL.DEPTH_EXCEEDED"
	// ExecutionCallCycle: a workflow called while it is already running in the chain
	ExecutionCallCycle = "EXECUTION.CALL.CYCLE"
	// ExecutionCallLoad: the called workflow could not be loaded at run time
	ExecutionCallLoad = "EXECUTION.CALL.LOAD"

	// EXECUTION.OPERATION
	// ExecutionOperationUnavailable: no runner serves the operation in this awf
	ExecutionOperationUnavailable = "EXECUTION.OPERATION.UNAVAILABLE"
	// ExecutionPluginCallTimeout: a bridged MCP server did not answer a call within its
	// call_timeout; the call was cancelled upstream
	ExecutionPluginCallTimeout = "EXECUTION.PLUGIN.CALL_TIMEOUT"
)
