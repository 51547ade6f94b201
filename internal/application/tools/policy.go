package tools

import (
	"github.com/awf-dev/awf/internal/domain/tool"
)

// Decision labels carried in tool.Intent.Decision, the span, the log line and the activity record.
const (
	DecisionAllow   = "allow"   // the call goes ahead
	DecisionWarn    = "warn"    // the call goes ahead, with a warning that is logged and recorded
	DecisionRefuse  = "refuse"  // the call is not dispatched; the agent gets Decision.Message
	decisionUnknown = "unknown" // no decision was reached (unknown tool, bad arguments)
)

// CallInfo is what a Policy knows about a call besides the tool definition.
type CallInfo struct {
	// Tool is the name the agent called.
	Tool string
	// Args are the decoded arguments (a JSON object), before schema validation.
	Args map[string]any
	// Declared is the intent the caller declared, if any. It is zero for a plain CallTool; the
	// split mode (call_tool_read / call_tool_write / call_tool_destructive) fills it.
	Declared tool.Intent
}

// Decision is a Policy's verdict on one call. Intent is what gets recorded (variant, operation
// type, sensitivity, reason, decision label, warning) whether or not the call is allowed.
type Decision struct {
	Allow bool
	// Intent is recorded in the span (awf.intent.*), the log line and the activity record.
	Intent tool.Intent
	// Message is the text returned to the agent when Allow is false; it should say what to do
	// instead (for example which call_tool_* variant to use).
	Message string
}

// Policy decides whether a call may go ahead. It is the hook for the intent rule (DESIGN §5):
// the router asks it once per call, after the arguments are parsed and before they are
// validated and dispatched, and records what it says. Implementations must be safe for
// concurrent use and must not block.
type Policy interface {
	Decide(def tool.Definition, call CallInfo) Decision
}

// AllowAll is the default Policy: every call is allowed and its variant is derived from the
// tool's annotations (tool.CallWith), so records already carry a meaningful variant before the
// intent rule is configured.
type AllowAll struct{}

// Decide allows the call.
func (AllowAll) Decide(def tool.Definition, call CallInfo) Decision {
	in := call.Declared
	if in.Variant == "" {
		in.Variant = tool.CallWith(def.Annotations)
	}
	in.Decision = DecisionAllow
	return Decision{Allow: true, Intent: in}
}
