package fault

// Codes of the USER category (exit 1). Each code is written here once; every other
// package names it through these constants. Codes are a public contract: scripts and editor
// integrations match on them, so a released code is never renamed.
const (
	// USER.ACTIVITY
	UserActivityAmbiguousID = "USER.ACTIVITY.AMBIGUOUS_ID"
	UserActivityNotFound    = "USER.ACTIVITY.NOT_FOUND"

	// USER.AGENT
	// UserAgentInvalidOption: a known option with a value of the wrong type or out of range.
	UserAgentInvalidOption   = "USER.AGENT.INVALID_OPTION"
	UserAgentMissingOption   = "USER.AGENT.MISSING_OPTION"
	UserAgentMissingPrompt   = "USER.AGENT.MISSING_PROMPT"
	UserAgentMissingProvider = "USER.AGENT.MISSING_PROVIDER"
	UserAgentPromptConflict  = "USER.AGENT.PROMPT_CONFLICT"
	UserAgentPromptFile      = "USER.AGENT.PROMPT_FILE"
	// UserAgentUnknownOption: an option the provider does not know.
	UserAgentUnknownOption   = "USER.AGENT.UNKNOWN_OPTION"
	UserAgentUnknownProvider = "USER.AGENT.UNKNOWN_PROVIDER"
	// UserAgentUnsupportedOption: a common option this CLI has no way to honour.
	UserAgentUnsupportedOption = "USER.AGENT.UNSUPPORTED_OPTION"

	// USER.BUILTINS
	UserBuiltinsBadOption = "USER.BUILTINS.BAD_OPTION"
	UserBuiltinsBadRoot   = "USER.BUILTINS.BAD_ROOT"
	UserBuiltinsNoRoot    = "USER.BUILTINS.NO_ROOT"

	// USER.CLI
	UserCLIInvalidArgs       = "USER.CLI.INVALID_ARGS"
	UserCLIInvalidFormat     = "USER.CLI.INVALID_FORMAT"
	UserCLIInvalidIntentType = "USER.CLI.INVALID_INTENT_TYPE"
	UserCLIInvalidStatus     = "USER.CLI.INVALID_STATUS"
	UserCLIInvalidVariant    = "USER.CLI.INVALID_VARIANT"
	UserCLIMissingFlag       = "USER.CLI.MISSING_FLAG"
	UserCLIUnknownStep       = "USER.CLI.UNKNOWN_STEP"

	// USER.ENV
	// UserEnvInvalidName: a name under the workflow's `env:` that is not a variable name, or is listed twice.
	UserEnvInvalidName = "USER.ENV.INVALID_NAME"
	// UserEnvMissing: a variable the workflow's `env:` requires is unset or empty when the run starts.
	UserEnvMissing = "USER.ENV.MISSING"

	// USER.EXPR
	// UserExprInvalid: a `when` expression that does not compile (syntax, unknown name, not a condition).
	UserExprInvalid = "USER.EXPR.INVALID"
	// UserExprUnknownReference: an expression reading a state or input the workflow does not have.
	UserExprUnknownReference = "USER.EXPR.UNKNOWN_REFERENCE"

	// USER.INIT
	// UserInitCannotWrite: `awf init` could not create .awf/ or one of its files.
	UserInitCannotWrite = "USER.INIT.CANNOT_WRITE"

	// USER.INPUT
	UserInputDuplicateName  = "USER.INPUT.DUPLICATE_NAME"
	UserInputInvalidDefault = "USER.INPUT.INVALID_DEFAULT"
	UserInputInvalidName    = "USER.INPUT.INVALID_NAME"
	UserInputInvalidType    = "USER.INPUT.INVALID_TYPE"
	UserInputInvalidValue   = "USER.INPUT.INVALID_VALUE"
	UserInputMissing        = "USER.INPUT.MISSING"
	UserInputMissingName    = "USER.INPUT.MISSING_NAME"
	UserInputSyntax         = "USER.INPUT.SYNTAX"
	UserInputUnknown        = "USER.INPUT.UNKNOWN"

	// USER.INTENT
	UserIntentArgsConflict         = "USER.INTENT.ARGS_CONFLICT"
	UserIntentConflict             = "USER.INTENT.CONFLICT"
	UserIntentInvalidArgs          = "USER.INTENT.INVALID_ARGS"
	UserIntentInvalidCall          = "USER.INTENT.INVALID_CALL"
	UserIntentInvalidOperationType = "USER.INTENT.INVALID_OPERATION_TYPE"
	UserIntentInvalidSensitivity   = "USER.INTENT.INVALID_SENSITIVITY"
	UserIntentInvalidVariant       = "USER.INTENT.INVALID_VARIANT"
	UserIntentMismatch             = "USER.INTENT.MISMATCH"
	UserIntentMissingIntent        = "USER.INTENT.MISSING_INTENT"
	UserIntentMissingName          = "USER.INTENT.MISSING_NAME"
	UserIntentMissingOperationType = "USER.INTENT.MISSING_OPERATION_TYPE"
	UserIntentNotAllowed           = "USER.INTENT.NOT_ALLOWED"
	UserIntentOverlyCautious       = "USER.INTENT.OVERLY_CAUTIOUS"
	UserIntentReasonTooLong        = "USER.INTENT.REASON_TOO_LONG"
	UserIntentServerMismatch       = "USER.INTENT.SERVER_MISMATCH"
	UserIntentToolNotFound         = "USER.INTENT.TOOL_NOT_FOUND"

	// USER.MCP_PROXY
	// UserMCPProxyAskNotAllowed: intent.ask lists a variant intent.allow does not allow.
	UserMCPProxyAskNotAllowed     = "USER.MCP_PROXY.ASK_NOT_ALLOWED"
	UserMCPProxyEmptyExpose       = "USER.MCP_PROXY.EMPTY_EXPOSE"
	UserMCPProxyEmptyProxy        = "USER.MCP_PROXY.EMPTY_PROXY"
	UserMCPProxyInfiniteLoopGuard = "USER.MCP_PROXY.INFINITE_LOOP_GUARD"
	UserMCPProxyInvalidIntent     = "USER.MCP_PROXY.INVALID_INTENT"
	// UserMCPProxyInvalidSchema: the code of an operation whose input schema awf cannot list as a tool's. It is the router's code for the same problem, so both layers report it alike.
	UserMCPProxyInvalidSchema = "USER.MCP_PROXY.INVALID_SCHEMA"
	UserMCPProxyInvalidTool   = "USER.MCP_PROXY.INVALID_TOOL"
	UserMCPProxyMissingPlugin = "USER.MCP_PROXY.MISSING_PLUGIN"
	// UserMCPProxyNameCollision: two tools of one step end up with the same name.
	UserMCPProxyNameCollision = "USER.MCP_PROXY.NAME_COLLISION"
	// UserMCPProxyNotEnabled: warning: settings without enable: true
	UserMCPProxyNotEnabled = "USER.MCP_PROXY.NOT_ENABLED"
	// UserMCPProxyPluginDisabled: a plugin declared with `disabled: true`.
	UserMCPProxyPluginDisabled = "USER.MCP_PROXY.PLUGIN_DISABLED"
	// UserMCPProxyShadowedByBuiltin: the error for proxy tools Gemini would silently drop. It is a USER error: the fix is renaming the plugin operation or choosing another provider.
	UserMCPProxyShadowedByBuiltin = "USER.MCP_PROXY.SHADOWED_BY_BUILTIN"
	UserMCPProxyUnknownKey        = "USER.MCP_PROXY.UNKNOWN_KEY"
	// UserMCPProxyUnknownOperation: an operation the running plugin does not list.
	UserMCPProxyUnknownOperation = "USER.MCP_PROXY.UNKNOWN_OPERATION"
	// UserMCPProxyUnknownPlugin: a plugin name that .awf/plugins.yaml does not declare.
	UserMCPProxyUnknownPlugin = "USER.MCP_PROXY.UNKNOWN_PLUGIN"
	// UserMCPProxyUnsupportedProvider: the warning printed where a CLI cannot be fully isolated behind the proxy (docs/design.md#the-mcp-proxy).
	UserMCPProxyUnsupportedProvider = "USER.MCP_PROXY.UNSUPPORTED_PROVIDER"

	// USER.MCP_SERVE
	UserMCPServeConfig = "USER.MCP_SERVE.CONFIG"

	// USER.OTEL
	UserOTelConfig = "USER.OTEL.CONFIG"

	// USER.PLUGINS
	// UserPluginsCommandNotFound: Processes and calls. command does not exist or is not executable
	UserPluginsCommandNotFound = "USER.PLUGINS.COMMAND_NOT_FOUND"
	// UserPluginsInitFailed: the plugin rejected its config
	UserPluginsInitFailed = "USER.PLUGINS.INIT_FAILED"
	// UserPluginsInvalid: plugins.yaml. the file has problems, listed as diagnostics
	UserPluginsInvalid = "USER.PLUGINS.INVALID"
	// UserPluginsInvalidName: a plugin name that cannot prefix tool names
	UserPluginsInvalidName = "USER.PLUGINS.INVALID_NAME"
	// UserPluginsInvalidValue: a value of the wrong kind
	UserPluginsInvalidValue = "USER.PLUGINS.INVALID_VALUE"
	// UserPluginsMissingCommand: a plugin without command
	UserPluginsMissingCommand = "USER.PLUGINS.MISSING_COMMAND"
	// UserPluginsUnknownKey: a key plugins.yaml does not know
	UserPluginsUnknownKey = "USER.PLUGINS.UNKNOWN_KEY"
	// UserPluginsUnreadable: exists but cannot be read; codePluginsUnreadable labels a registry that failed without saying why in a code.
	UserPluginsUnreadable = "USER.PLUGINS.UNREADABLE"

	// USER.TEMPLATE
	// UserTemplateExec: a template that parsed but could not be filled at run time, typically a reference to a state that has not run yet on this path.
	UserTemplateExec = "USER.TEMPLATE.EXEC"
	// UserTemplateRaw: a warning at each {{raw …}} in shell code, which pastes a value as code.
	UserTemplateRaw = "USER.TEMPLATE.RAW"
	// UserTemplateShellPlace: a {{ }} in shell code at a place no value can take as data (after a
	// backslash or a lone $, inside a here-document delimiter, across branches that quote differently).
	UserTemplateShellPlace       = "USER.TEMPLATE.SHELL_PLACE"
	UserTemplateSyntax           = "USER.TEMPLATE.SYNTAX"
	UserTemplateUnknownField     = "USER.TEMPLATE.UNKNOWN_FIELD"
	UserTemplateUnknownInput     = "USER.TEMPLATE.UNKNOWN_INPUT"
	UserTemplateUnknownReference = "USER.TEMPLATE.UNKNOWN_REFERENCE"
	UserTemplateUnknownState     = "USER.TEMPLATE.UNKNOWN_STATE"

	// USER.WORKFLOW
	// UserWorkflowEmpty: nothing but blanks and comments
	UserWorkflowEmpty          = "USER.WORKFLOW.EMPTY"
	UserWorkflowInvalid        = "USER.WORKFLOW.INVALID"
	UserWorkflowInvalidStatus  = "USER.WORKFLOW.INVALID_STATUS"
	UserWorkflowInvalidTimeout = "USER.WORKFLOW.INVALID_TIMEOUT"
	UserWorkflowInvalidValue   = "USER.WORKFLOW.INVALID_VALUE"
	// UserWorkflowKeyNotAllowed: a real key, on the wrong state type
	UserWorkflowKeyNotAllowed  = "USER.WORKFLOW.KEY_NOT_ALLOWED"
	UserWorkflowMissingCommand = "USER.WORKFLOW.MISSING_COMMAND"
	UserWorkflowMissingInitial = "USER.WORKFLOW.MISSING_INITIAL"
	// UserWorkflowInvalidRetry: a `retry:` value out of range or of the wrong kind.
	UserWorkflowInvalidRetry = "USER.WORKFLOW.INVALID_RETRY"
	// UserWorkflowMissingGoto: an entry of `transitions:` without `goto`.
	UserWorkflowMissingGoto      = "USER.WORKFLOW.MISSING_GOTO"
	UserWorkflowMissingName      = "USER.WORKFLOW.MISSING_NAME"
	UserWorkflowMissingStateType = "USER.WORKFLOW.MISSING_STATE_TYPE"
	// UserWorkflowNotFound: no workflow by that name or path
	UserWorkflowNotFound           = "USER.WORKFLOW.NOT_FOUND"
	UserWorkflowNoExit             = "USER.WORKFLOW.NO_EXIT"
	UserWorkflowNoStates           = "USER.WORKFLOW.NO_STATES"
	UserWorkflowNoTerminal         = "USER.WORKFLOW.NO_TERMINAL"
	UserWorkflowTerminalTransition = "USER.WORKFLOW.TERMINAL_TRANSITION"
	// UserWorkflowTooLarge: larger than any sane workflow
	UserWorkflowTooLarge         = "USER.WORKFLOW.TOO_LARGE"
	UserWorkflowUnknownInitial   = "USER.WORKFLOW.UNKNOWN_INITIAL"
	UserWorkflowUnknownKey       = "USER.WORKFLOW.UNKNOWN_KEY"
	UserWorkflowUnknownStateType = "USER.WORKFLOW.UNKNOWN_STATE_TYPE"
	UserWorkflowUnknownTarget    = "USER.WORKFLOW.UNKNOWN_TARGET"
	// UserWorkflowUnreachableState: warning
	UserWorkflowUnreachableState = "USER.WORKFLOW.UNREACHABLE_STATE"
	// UserWorkflowUnreadable: the file exists but cannot be read
	UserWorkflowUnreadable = "USER.WORKFLOW.UNREADABLE"

	// USER.X
	UserXY = "USER.X.Y"

	// USER.YAML
	UserYAMLDuplicateKey = "USER.YAML.DUPLICATE_KEY"
	UserYAMLSyntax       = "USER.YAML.SYNTAX"

	// USER.INPUT: the `validation:` rules of inputs (docs/decisions/0010-the-reference-schema.md).
	// UserInputInvalidRule: a rule that cannot work: a pattern that does not compile, enum values
	// of the wrong type, min above max, a rule the input's type has no use for.
	UserInputInvalidRule = "USER.INPUT.INVALID_RULE"
	// UserInputPatternMismatch: a value that does not match its input's pattern.
	UserInputPatternMismatch = "USER.INPUT.PATTERN_MISMATCH"
	// UserInputNotAllowed: a value that is not one of its input's enum values.
	UserInputNotAllowed = "USER.INPUT.NOT_ALLOWED"
	// UserInputOutOfRange: a number below its input's min or above its max.
	UserInputOutOfRange = "USER.INPUT.OUT_OF_RANGE"
	// UserInputFileNotFound: a path that does not exist, for an input with file_exists.
	UserInputFileNotFound = "USER.INPUT.FILE_NOT_FOUND"
	// UserInputFileExtension: a path without one of its input's file_extension values.
	UserInputFileExtension = "USER.INPUT.FILE_EXTENSION"

	// USER.TEMPLATE: what awf validate finds in a template that parses but would fail at run time.
	// UserTemplateUnknownFunction: a name in function position that is neither a function nor a namespace.
	UserTemplateUnknownFunction = "USER.TEMPLATE.UNKNOWN_FUNCTION"
	// UserTemplateBadCall: a function with the wrong count of arguments, arguments given to a value, call, an undefined {{template}}.
	UserTemplateBadCall = "USER.TEMPLATE.BAD_CALL"
	// UserTemplateTypeMismatch: eq, lt… comparing values Go templates refuse to compare (text with a number, lists).
	UserTemplateTypeMismatch = "USER.TEMPLATE.TYPE_MISMATCH"
	// USER.STEPS (docs/decisions/0010-the-reference-schema.md, steps helper)
	// UserWorkflowUnsupported: a key awf knows but cannot honour yet (conversation steps).
	UserWorkflowUnsupported = "USER.WORKFLOW.UNSUPPORTED"
	// UserWorkflowScriptConflict: a command step with both command and script_file.
	UserWorkflowScriptConflict = "USER.WORKFLOW.SCRIPT_CONFLICT"
	// UserWorkflowScriptFile: a script_file that cannot be read.
	UserWorkflowScriptFile = "USER.WORKFLOW.SCRIPT_FILE"
	// UserWorkflowShell: a `shell:` that is not a POSIX-like shell.
	UserWorkflowShell = "USER.WORKFLOW.SHELL"
	// UserTemplateURLPlace: a {{ }} in an http.request url where a value would choose the scheme,
	// host or port (unless {{raw}}), or {{if}} branches that leave the URL in different parts.
	UserTemplateURLPlace = "USER.TEMPLATE.URL_PLACE"
	// UserTemplateURLChanged: an http.request url whose rendered scheme, host or port is not
	// the one its template writes.
	UserTemplateURLChanged = "USER.TEMPLATE.URL_CHANGED"
	// UserOperationHeaderValue: an http.request header whose rendered name or value holds a
	// line break or a NUL, which would end the header or add another.
	UserOperationHeaderValue = "USER.OPERATION.HEADER_VALUE"
	// UserTemplateInterpreter: {{…}} in a script_file whose #! interpreter is not a shell; its
	// values arrive as AWF_INPUT_<NAME> variables instead.
	UserTemplateInterpreter = "USER.TEMPLATE.INTERPRETER"
	// UserWorkflowInvalidHook: a hook entry without exactly one of log and command.
	UserWorkflowInvalidHook = "USER.WORKFLOW.INVALID_HOOK"
	// UserWorkflowCaptureIgnored: a warning that `capture:` has no effect.
	UserWorkflowCaptureIgnored = "USER.WORKFLOW.CAPTURE_IGNORED"
	// UserTemplateReadFile: a readFile call that cannot read its file.
	UserTemplateReadFile = "USER.TEMPLATE.READ_FILE"
	// UserTemplateErrorScope: .error used where no error can be set.
	UserTemplateErrorScope = "USER.TEMPLATE.ERROR_SCOPE"
	// UserAgentOutputFormat: an agent's output that is not the JSON its output_format asks for.
	UserAgentOutputFormat = "USER.AGENT.OUTPUT_FORMAT"
	// Control flow (parallel, for_each, while).
	// UserWorkflowEmptyBody: a loop without body states, or a parallel state without branches.
	UserWorkflowEmptyBody = "USER.WORKFLOW.EMPTY_BODY"
	// UserWorkflowInvalidMember: a body or branch list naming the state itself, a terminal, a state twice, or a state another loop or parallel state already runs.
	UserWorkflowInvalidMember = "USER.WORKFLOW.INVALID_MEMBER"
	// UserWorkflowMemberEntered: a transition (or initial) entering a body or branch state from outside its loop or parallel state.
	UserWorkflowMemberEntered = "USER.WORKFLOW.MEMBER_ENTERED"
	// UserWorkflowMaxIterations: a written max_iterations below 1 or above the cap.
	UserWorkflowMaxIterations = "USER.WORKFLOW.MAX_ITERATIONS"
	// UserWorkflowMissingItems: a for_each state without items.
	UserWorkflowMissingItems = "USER.WORKFLOW.MISSING_ITEMS"
	// UserWorkflowInvalidItems: for_each items written as text that is neither a template nor a JSON list.
	UserWorkflowInvalidItems = "USER.WORKFLOW.INVALID_ITEMS"
	// UserWorkflowInvalidStrategy: a parallel strategy other than all_succeed, any_succeed, best_effort.
	UserWorkflowInvalidStrategy = "USER.WORKFLOW.INVALID_STRATEGY"
	// UserWorkflowInvalidConcurrency: a max_concurrent below 1 (or, on a for_each, above 64).
	UserWorkflowInvalidConcurrency = "USER.WORKFLOW.INVALID_CONCURRENCY"
	// UserTemplateLoopOutside: a template reading .loop where no loop runs (or .loop.Parent beyond the nesting).
	UserTemplateLoopOutside = "USER.TEMPLATE.LOOP_OUTSIDE"
	// UserExprLoopOutside: an expression reading loop where no loop runs (or loop.Parent beyond the nesting).
	UserExprLoopOutside = "USER.EXPR.LOOP_OUTSIDE"
	// USER.TOOL (the agent's call was wrong; recorded in the activity record's code)
	// UserToolNotFound: a tool call names no tool the step serves.
	UserToolNotFound = "USER.TOOL.NOT_FOUND"
	// UserToolInvalidArgs: a tool call's arguments are not a JSON object or fail the tool's schema.
	UserToolInvalidArgs = "USER.TOOL.INVALID_ARGS"
	// docs/decisions/0012-kernel-sandbox.md: kernel-enforced confinement.
	// UserBuiltinsProtectedPath: Write or Edit aimed at a path awf protects (.awf/, .git/hooks/,
	// .git/config, a plugin command, a private file of awf).
	UserBuiltinsProtectedPath = "USER.BUILTINS.PROTECTED_PATH"
	// UserSandboxUnavailable: sandbox mode required on a kernel that cannot enforce it.
	UserSandboxUnavailable = "USER.SANDBOX.UNAVAILABLE"
	// UserSandboxInvalid: a bad sandbox: block (unknown key, bad mode, writable path missing).
	UserSandboxInvalid = "USER.SANDBOX.INVALID"
	// UserSandboxDenied: the sandbox refused a Bash call's write, network use or start.
	UserSandboxDenied = "USER.SANDBOX.DENIED"
	// UserAgentRootOutside: an agent step's templated dir resolves outside the project root.
	UserAgentRootOutside = "USER.AGENT.ROOT_OUTSIDE_PROJECT"
	// UserPluginsEnvUnset: a plugins.yaml env: value references a variable that is not set.
	UserPluginsEnvUnset = "USER.PLUGINS.ENV_UNSET"
	// USER.CALL: call_workflow states
	// UserCallMissingWorkflow: no `workflow:` to call
	UserCallMissingWorkflow = "USER.CALL.MISSING_WORKFLOW"
	// UserCallUnknownWorkflow: the called workflow does not exist
	UserCallUnknownWorkflow = "USER.CALL.UNKNOWN_WORKFLOW"
	// UserCallCycle: workflows that call each other in a circle
	UserCallCycle = "USER.CALL.CYCLE"
	// UserCallUnknownInput: an input the called workflow does not declare
	UserCallUnknownInput = "USER.CALL.UNKNOWN_INPUT"
	// UserCallMissingInput: a required input of the called workflow is not passed
	UserCallMissingInput = "USER.CALL.MISSING_INPUT"
	// UserCallUnknownOutput: an `outputs:` key the called workflow neither declares nor has as a state
	UserCallUnknownOutput = "USER.CALL.UNKNOWN_OUTPUT"
	// UserCallInvalidOutput: an `outputs:` entry with an empty target name
	UserCallInvalidOutput = "USER.CALL.INVALID_OUTPUT"
	// UserCallInvalidCallee: the called workflow has errors of its own
	UserCallInvalidCallee = "USER.CALL.INVALID_CALLEE"
	// UserCallTooDeep: a chain of calls known before the run to nest deeper than the limit
	UserCallTooDeep = "USER.CALL.TOO_DEEP"

	// USER.OPERATION: operation states
	// UserOperationMissing: no `operation:` name
	UserOperationMissing = "USER.OPERATION.MISSING"
	// UserOperationUnknown: neither a built-in nor an operation of a declared plugin
	UserOperationUnknown = "USER.OPERATION.UNKNOWN"
	// UserOperationUnknownInput: an input the operation does not take
	UserOperationUnknownInput = "USER.OPERATION.UNKNOWN_INPUT"
	// UserOperationMissingInput: a required input of the operation is not given
	UserOperationMissingInput = "USER.OPERATION.MISSING_INPUT"

	// UserWorkflowInvalidOutput: a top-level `outputs:` entry without name or from, or a duplicate
	UserWorkflowInvalidOutput = "USER.WORKFLOW.INVALID_OUTPUT"

	// UserTemplateNeverRun: a template reading a state that no run can have finished before the
	// state holding the template (a forward or self reference): it would fail every run.
	UserTemplateNeverRun = "USER.TEMPLATE.NEVER_RUN"
	// USER.RUN: persisted runs (awf status, history, resume)
	// UserRunNotFound: no run with that id under .awf/runs
	UserRunNotFound = "USER.RUN.NOT_FOUND"
	// UserRunCorrupt: a run's state.json cannot be read as a run record
	UserRunCorrupt = "USER.RUN.CORRUPT"
	// UserRunNotResumable: the run succeeded, or is still running
	UserRunNotResumable = "USER.RUN.NOT_RESUMABLE"
	// UserRunWorkflowChanged: the workflow file changed since the run (resume without --force)
	UserRunWorkflowChanged = "USER.RUN.WORKFLOW_CHANGED"
	// UserRunUnknownState: resume --from names a state the workflow does not have
	UserRunUnknownState = "USER.RUN.UNKNOWN_STATE"
	// UserRunLocked: another awf resume of the same run holds its lock
	UserRunLocked = "USER.RUN.LOCKED"
	// UserMCPProxyToolChanged: an exposed tool differs from its pin in .awf/plugins.lock (or is not pinned).
	UserMCPProxyToolChanged = "USER.MCP_PROXY.TOOL_CHANGED"
	// UserMCPProxyToolNameTooLong: <plugin>_<tool> is longer than the 64 characters agent CLIs accept.
	UserMCPProxyToolNameTooLong = "USER.MCP_PROXY.TOOL_NAME_TOO_LONG"
	// UserMCPProxyToolHeld: a tool whose definition has a high scan finding, kept out of every step until `awf plugins lock --accept <plugin>/<tool>`.
	UserMCPProxyToolHeld = "USER.MCP_PROXY.TOOL_HELD"
	// UserMCPProxyToolFinding: warning: a medium or low scan finding in a tool's definition (or a high one the user accepted).
	UserMCPProxyToolFinding = "USER.MCP_PROXY.TOOL_FINDING"
	// UserPluginsInvalidURL: an MCP plugin's url is not an http(s) URL.
	UserPluginsInvalidURL = "USER.PLUGINS.INVALID_URL"
	// UserPluginsLockInvalid: .awf/plugins.lock cannot be read or parsed.
	UserPluginsLockInvalid = "USER.PLUGINS.LOCK_INVALID"
	// UserSandboxRemotePlugin: a step with mcp_proxy.sandbox.network: false exposes an MCP
	// plugin reached over HTTP (url:), which a network namespace cannot cut off.
	UserSandboxRemotePlugin = "USER.SANDBOX.REMOTE_PLUGIN"
	// UserConversationNoSession: conversation.continue_from names a step that has not run yet in
	// this run, or ran without leaving a session or any history to continue.
	UserConversationNoSession = "USER.CONVERSATION.NO_SESSION"
	// UserConversationUnsupported: the step's provider cannot continue a session in this awf.
	UserConversationUnsupported = "USER.CONVERSATION.UNSUPPORTED"
)
