package fault

// Codes of the SYSTEM category (exit 4). Each code is written here once; every other
// package names it through these constants. Codes are a public contract: scripts and editor
// integrations match on them, so a released code is never renamed.
const (
	// SYSTEM.ACTIVITY
	SystemActivityReadFailed  = "SYSTEM.ACTIVITY.READ_FAILED"
	SystemActivityWriteFailed = "SYSTEM.ACTIVITY.WRITE_FAILED"

	// SYSTEM.AGENT
	SystemAgentEncode = "SYSTEM.AGENT.ENCODE"

	// SYSTEM.BUILTINS
	SystemBuiltinsClosed      = "SYSTEM.BUILTINS.CLOSED"
	SystemBuiltinsUnknownTool = "SYSTEM.BUILTINS.UNKNOWN_TOOL"

	// SYSTEM.FS
	SystemFSCwd    = "SYSTEM.FS.CWD"
	SystemFSRunDir = "SYSTEM.FS.RUN_DIR"
	SystemFSTemp   = "SYSTEM.FS.TEMP"

	// SYSTEM.INTERNAL
	SystemInternalUnexpected = "SYSTEM.INTERNAL.UNEXPECTED"

	// SYSTEM.MCP_PROXY
	SystemMCPProxyClosed = "SYSTEM.MCP_PROXY.CLOSED"
	SystemMCPProxySetup  = "SYSTEM.MCP_PROXY.SETUP"
	// SystemMCPProxyUnknownTool: for a call for a tool this provider does not serve (a routing bug, never the agent's doing: the router only dispatches listed names).
	SystemMCPProxyUnknownTool = "SYSTEM.MCP_PROXY.UNKNOWN_TOOL"
	SystemMCPProxyUnwired     = "SYSTEM.MCP_PROXY.UNWIRED"

	// SYSTEM.MCP_SERVE
	SystemMCPServeStart = "SYSTEM.MCP_SERVE.START"

	// SYSTEM.RUN
	// SystemRunNoExecutor: a kind of state the run engine has no executor for (when it is built, or a state of an unknown kind met at run time); never run as something else.
	SystemRunNoExecutor = "SYSTEM.RUN.NO_EXECUTOR"
	// SystemRunSetup: the run engine was built without something it needs (the environment, a prompt source).
	SystemRunSetup        = "SYSTEM.RUN.SETUP"
	SystemRunUnknownState = "SYSTEM.RUN.UNKNOWN_STATE"

	// SYSTEM.TOOL
	// SystemToolPanic: a tool provider panicked during a call (an awf bug; recorded with this code).
	SystemToolPanic = "SYSTEM.TOOL.PANIC"

	// SYSTEM.FS (run state)
	// SystemFSRunState: a run's state.json could not be written
	SystemFSRunState = "SYSTEM.FS.RUN_STATE"
	// SYSTEM.DIAGRAM
	// SystemDiagramNoGraphviz: `awf diagram -o x.svg|x.png` needs Graphviz's `dot` on PATH.
	SystemDiagramNoGraphviz = "SYSTEM.DIAGRAM.NO_GRAPHVIZ"
	// SystemDiagramRender: Graphviz's `dot` failed or timed out while drawing.
	SystemDiagramRender = "SYSTEM.DIAGRAM.RENDER"
	// SystemDiagramWrite: the file given with -o could not be written.
	SystemDiagramWrite = "SYSTEM.DIAGRAM.WRITE"

	// SYSTEM.REPORT
	// SystemReportWrite: the HTML report of a run could not be written.
	SystemReportWrite = "SYSTEM.REPORT.WRITE"
)
