package routing

import (
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// Decision labels carried in tool.Intent.Decision, the span, the log line and the activity record.
// They are the domain rule's verdicts.
const (
	DecisionAllow   = string(tool.VerdictAllow)  // the call goes ahead
	DecisionWarn    = string(tool.VerdictWarn)   // the call goes ahead, with a warning that is logged and recorded
	DecisionRefuse  = string(tool.VerdictRefuse) // the call is not dispatched; the agent gets Decision.Message
	decisionUnknown = "unknown"                  // no decision was reached (unknown tool, bad arguments)
)

// CallInfo is what a Policy knows about a call besides the tool definition.
type CallInfo struct {
	// Tool is the name the agent called.
	Tool string
	// Args are the decoded arguments (a JSON object), before schema validation.
	Args map[string]any
	// Declared is what the caller declared: the variant it called through and its intent. It is
	// zero for a plain CallTool (a direct call, whose variant is the tool's CallWith).
	Declared tool.Declaration
}

// Decision is a Policy's verdict on one call. Intent is what gets recorded (variant, operation
// type, sensitivity, reason, decision label, warning) whether or not the call is allowed.
type Decision struct {
	Allow bool
	// Intent is recorded in the span (awf.intent.*), the log line and the activity record.
	Intent tool.Intent
	// Code is the stable code of a refusal or warning (tool.Code*), logged and put on the span.
	Code string
	// Message is the text returned to the agent when Allow is false; it should say what to do
	// instead (for example which call_tool_* variant to use).
	Message string
	// Approval is the decision on a call held for approval (ApprovalPolicy); nil otherwise.
	Approval *activity.Approval
}

// Policy decides whether a call may go ahead. It is the hook for the intent rule
// (docs/design.md#the-intent-rule): the router asks it once per call, after the arguments are
// parsed and before they are validated and dispatched, and records what it says. Implementations must be safe for
// concurrent use and must not block; the one that waits (ApprovalPolicy) is called with the
// call's context instead.
type Policy interface {
	Decide(def tool.Definition, call CallInfo) Decision
}

// AllowAll is the default Policy: every call is allowed and its variant is the declared one or
// the tool's CallWith, so records already carry a meaningful variant before the intent rule is
// configured.
type AllowAll struct{}

// Decide allows the call.
func (AllowAll) Decide(def tool.Definition, call CallInfo) Decision {
	d := call.Declared
	in := tool.Intent{Variant: d.Variant, OperationType: d.OperationType, DataSensitivity: d.DataSensitivity, Reason: d.Reason, Decision: DecisionAllow}
	if in.Variant == "" {
		in.Variant = tool.CallWith(def.Annotations)
	}
	return Decision{Allow: true, Intent: in}
}

// IntentPolicy is the intent rule as a Policy: it applies tool.Decide with the step's settings
// to the tool's definition as the router holds it at call time. Every call is allowed, warned or
// refused by it, and what it decided is recorded with the variant, the operation type (declared,
// or inferred from the variant), the sensitivity and the reason.
type IntentPolicy struct {
	Settings tool.RuleSettings
}

// Decide applies the rule.
func (p IntentPolicy) Decide(def tool.Definition, call CallInfo) Decision {
	d := call.Declared
	dec := tool.Decide(tool.RuleInput{Tool: def.Name, Annotations: def.Annotations, Settings: p.Settings, Declared: d})
	return toDecision(dec, d)
}

// toDecision turns the domain rule's answer into what the router records.
func toDecision(dec tool.Decision, d tool.Declaration) Decision {
	in := tool.Intent{
		Variant:         dec.Variant,
		OperationType:   d.OperationType,
		DataSensitivity: d.DataSensitivity,
		Reason:          d.Reason,
		Decision:        string(dec.Verdict),
		Warning:         dec.Warning,
	}
	if in.OperationType == "" {
		in.OperationType = string(dec.Variant) // inferred from the door used, or the tool's own
	}
	return Decision{Allow: dec.Allowed(), Intent: in, Code: dec.Code, Message: dec.Message}
}
