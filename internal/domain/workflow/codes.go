package workflow

// Diagnostic codes of workflow files. They are part of awf's public contract: scripts and editor
// integrations match on them, so a code is never renamed once released. Every one is in the USER
// category (exit 1): the fix is always in the file.
const (
	// File level.
	CodeNotFound   = "USER.WORKFLOW.NOT_FOUND"  // no workflow by that name or path
	CodeUnreadable = "USER.WORKFLOW.UNREADABLE" // the file exists but cannot be read
	CodeTooLarge   = "USER.WORKFLOW.TOO_LARGE"  // larger than any sane workflow
	CodeEmpty      = "USER.WORKFLOW.EMPTY"      // nothing but blanks and comments

	// YAML syntax.
	CodeYAMLSyntax   = "USER.YAML.SYNTAX"
	CodeDuplicateKey = "USER.YAML.DUPLICATE_KEY"

	// Schema (shape of the file).
	CodeUnknownKey     = "USER.WORKFLOW.UNKNOWN_KEY"
	CodeInvalidValue   = "USER.WORKFLOW.INVALID_VALUE"
	CodeInvalidTimeout = "USER.WORKFLOW.INVALID_TIMEOUT"

	// Workflow and states.
	CodeMissingName        = "USER.WORKFLOW.MISSING_NAME"
	CodeNoStates           = "USER.WORKFLOW.NO_STATES"
	CodeMissingInitial     = "USER.WORKFLOW.MISSING_INITIAL"
	CodeUnknownInitial     = "USER.WORKFLOW.UNKNOWN_INITIAL"
	CodeMissingStateType   = "USER.WORKFLOW.MISSING_STATE_TYPE"
	CodeUnknownStateType   = "USER.WORKFLOW.UNKNOWN_STATE_TYPE"
	CodeKeyNotAllowed      = "USER.WORKFLOW.KEY_NOT_ALLOWED" // a real key, on the wrong state type
	CodeUnknownTarget      = "USER.WORKFLOW.UNKNOWN_TARGET"
	CodeNoTerminal         = "USER.WORKFLOW.NO_TERMINAL"
	CodeNoExit             = "USER.WORKFLOW.NO_EXIT"
	CodeUnreachableState   = "USER.WORKFLOW.UNREACHABLE_STATE" // warning
	CodeTerminalTransition = "USER.WORKFLOW.TERMINAL_TRANSITION"
	CodeInvalidStatus      = "USER.WORKFLOW.INVALID_STATUS"
	CodeMissingCommand     = "USER.WORKFLOW.MISSING_COMMAND"

	// Agent states.
	CodeMissingProvider = "USER.AGENT.MISSING_PROVIDER"
	CodeUnknownProvider = "USER.AGENT.UNKNOWN_PROVIDER"
	CodePromptConflict  = "USER.AGENT.PROMPT_CONFLICT"
	CodeMissingPrompt   = "USER.AGENT.MISSING_PROMPT"

	// Inputs.
	CodeInputMissingName    = "USER.INPUT.MISSING_NAME"
	CodeInputInvalidName    = "USER.INPUT.INVALID_NAME"
	CodeInputDuplicateName  = "USER.INPUT.DUPLICATE_NAME"
	CodeInputInvalidType    = "USER.INPUT.INVALID_TYPE"
	CodeInputInvalidDefault = "USER.INPUT.INVALID_DEFAULT"

	// Templates in command, prompt and dir.
	CodeTemplateSyntax           = "USER.TEMPLATE.SYNTAX"
	CodeTemplateUnknownInput     = "USER.TEMPLATE.UNKNOWN_INPUT"
	CodeTemplateUnknownState     = "USER.TEMPLATE.UNKNOWN_STATE"
	CodeTemplateUnknownField     = "USER.TEMPLATE.UNKNOWN_FIELD"
	CodeTemplateUnknownReference = "USER.TEMPLATE.UNKNOWN_REFERENCE"

	// The mcp_proxy block. The registry-dependent codes (UNKNOWN_PLUGIN, UNKNOWN_OPERATION,
	// NAME_COLLISION, UNSUPPORTED_PROVIDER) belong to the validators that see the plugins.
	CodeProxyUnknownKey    = "USER.MCP_PROXY.UNKNOWN_KEY"
	CodeProxyEmpty         = "USER.MCP_PROXY.EMPTY_PROXY"
	CodeProxyInvalidIntent = "USER.MCP_PROXY.INVALID_INTENT"
	CodeProxyMissingPlugin = "USER.MCP_PROXY.MISSING_PLUGIN"
	CodeProxyEmptyExpose   = "USER.MCP_PROXY.EMPTY_EXPOSE"
	CodeProxyNotEnabled    = "USER.MCP_PROXY.NOT_ENABLED" // warning: settings without enable: true
)
