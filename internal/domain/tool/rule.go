package tool

import (
	"strings"
	"unicode/utf8"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// MaxReason is the longest intent reason accepted, in characters (seed data model).
const MaxReason = 1000

// Sensitivities are the accepted data_sensitivity values, in the order messages list them.
var Sensitivities = []string{"public", "internal", "private", "unknown"}

// SplitToolName is the name of the split-mode tool for variant v: call_tool_read,
// call_tool_write or call_tool_destructive. It is also how messages name a variant, so the text
// an agent reads is the tool it should call.
func SplitToolName(v Variant) string {
	switch v {
	case VariantRead:
		return "call_tool_read"
	case VariantWrite:
		return "call_tool_write"
	case VariantDestructive:
		return "call_tool_destructive"
	}
	return "call_tool_" + string(v)
}

// RuleSettings is the part of a step's `mcp_proxy.intent` block the rule reads.
type RuleSettings struct {
	// Strict refuses calls that contradict the tool's annotations; false turns those refusals
	// into warnings (strict_server_validation).
	Strict bool
	// Allow lists the variants the step may use. nil means all three (the default when the
	// block says nothing); a non-nil empty list allows nothing, so a mistake fails closed.
	Allow []Variant
	// RequireDeclaration makes the nested intent.operation_type mandatory on split-mode calls
	// (the seed's strict two-key model). Direct calls cannot declare, so it does not apply to them.
	RequireDeclaration bool
}

// Allows reports whether the step may use variant v.
func (s RuleSettings) Allows(v Variant) bool {
	if s.Allow == nil {
		return v.Valid()
	}
	for _, a := range s.Allow {
		if a == v {
			return true
		}
	}
	return false
}

// Declaration is what the caller said about a call besides the tool's name and arguments.
type Declaration struct {
	// Variant is the door the call came through (call_tool_read, `awf call tool-read` …).
	// Empty means a direct call: the variant is derived from the tool's annotations (CallWith)
	// and nothing else can have been declared.
	Variant Variant
	// Nested reports that a nested `intent` object was given, even an empty one; with
	// RequireDeclaration a call without it is refused.
	Nested bool
	// OperationType is the nested intent.operation_type, "" when not given.
	OperationType string
	// DataSensitivity and Reason come from the flat intent_* parameters or the nested object.
	DataSensitivity string
	Reason          string
}

// Verdict is the outcome of the rule; its string is what records and spans carry as the decision.
type Verdict string

// The three verdicts.
const (
	VerdictAllow  Verdict = "allow"  // the call goes ahead
	VerdictWarn   Verdict = "warn"   // the call goes ahead; Warning must be logged and recorded
	VerdictRefuse Verdict = "refuse" // the call is not dispatched; Message goes to the agent
)

// Decision is the rule's answer for one call.
type Decision struct {
	Verdict Verdict
	// Variant is the variant the call was judged as: the declared one, or CallWith of the
	// annotations for a direct call. It is what records carry.
	Variant Variant
	// Code is one of the Code* constants; empty when the call is allowed without remark.
	Code string
	// Message is the refusal text for the agent: what was wrong and what to call instead.
	Message string
	// Warning is set when Verdict is VerdictWarn.
	Warning string
}

// Allowed reports whether the call may go ahead (allowed, with or without a warning).
func (d Decision) Allowed() bool { return d.Verdict != VerdictRefuse }

// RuleInput is everything the rule looks at. Annotations must be the tool's annotations at call
// time, not what the agent saw when it discovered the tool.
type RuleInput struct {
	Tool        string
	Annotations Annotations
	Settings    RuleSettings
	Declared    Declaration
}

// Decide applies the intent rule (docs/design.md#the-intent-rule) to one call. The checks run in this order, and the
// first that fails decides:
//
//  1. the variant exists and the step allows it, and allows the tool itself (its CallWith);
//  2. the declaration: required nested intent, a known operation_type equal to the variant
//     (the two keys), a known sensitivity, a reason of at most MaxReason characters;
//  3. the tool's annotations: read or write on a destructive tool, and read on a tool that says
//     it is not read-only, are refused (warned when not strict); write on a read-only tool is
//     warned; the destructive variant and a tool without hints are always allowed.
//
// It is pure, allocation-free when the call is allowed without remark, and never panics.
func Decide(in RuleInput) Decision {
	d := in.Declared
	callWith := CallWith(in.Annotations)
	if d.Variant == "" {
		// A direct call: the tool's own variant, nothing declared, nothing to compare.
		if !in.Settings.Allows(callWith) {
			return refuse(callWith, fault.UserIntentNotAllowed, toolNotAllowed(in.Tool, callWith, in.Settings))
		}
		return Decision{Verdict: VerdictAllow, Variant: callWith}
	}
	if dec := CheckVariant(d.Variant, in.Settings); !dec.Allowed() {
		return dec
	}
	v := d.Variant
	if !in.Settings.Allows(callWith) {
		return refuse(v, fault.UserIntentNotAllowed, toolNotAllowed(in.Tool, callWith, in.Settings))
	}
	if dec, bad := checkDeclaration(d, in.Settings.RequireDeclaration); bad {
		return dec
	}
	return checkAnnotations(in.Tool, v, in.Annotations, in.Settings.Strict)
}

// CheckVariant refuses a variant that does not exist or that the step does not allow, and
// allows the rest. The split exposure runs it before looking at the call's arguments, so an
// agent calling a door the step closed learns that first.
func CheckVariant(v Variant, s RuleSettings) Decision {
	if !v.Valid() {
		return refuse(v, fault.UserIntentInvalidVariant, "unknown variant '"+clip(string(v))+"': must be read, write, or destructive")
	}
	if !s.Allows(v) {
		msg := SplitToolName(v) + " is not allowed in this step: mcp_proxy.intent.allow lists " + allowedList(s)
		if others := s.AllowedSplitTools(); others != "" {
			msg += "; use " + others + " instead"
		}
		return refuse(v, fault.UserIntentNotAllowed, msg+", or ask the workflow author to add "+string(v)+" to mcp_proxy.intent.allow")
	}
	return Decision{Verdict: VerdictAllow, Variant: v}
}

// checkDeclaration validates the declared intent; bad is true with the refusal when it is wrong.
func checkDeclaration(d Declaration, require bool) (Decision, bool) {
	v := d.Variant
	if require && !d.Nested {
		return refuse(v, fault.UserIntentMissingIntent, "intent parameter is required for "+SplitToolName(v)), true
	}
	switch op := d.OperationType; {
	case op == "" && require:
		return refuse(v, fault.UserIntentMissingOperationType, "intent.operation_type is required"), true
	case op == "":
	case !Variant(op).Valid():
		return refuse(v, fault.UserIntentInvalidOperationType, "Invalid intent.operation_type '"+clip(op)+"': must be read, write, or destructive"), true
	case Variant(op) != v:
		return refuse(v, fault.UserIntentMismatch, "Intent mismatch: tool is "+SplitToolName(v)+" but intent declares "+op), true
	}
	if s := d.DataSensitivity; s != "" && !ValidSensitivity(s) {
		return refuse(v, fault.UserIntentInvalidSensitivity, "Invalid intent.data_sensitivity '"+clip(s)+"': must be public, internal, private, or unknown"), true
	}
	if utf8.RuneCountInString(d.Reason) > MaxReason {
		return refuse(v, fault.UserIntentReasonTooLong, "intent.reason exceeds maximum length of 1000 characters"), true
	}
	return Decision{}, false
}

// checkAnnotations compares the variant with what the tool says about itself.
func checkAnnotations(name string, v Variant, a Annotations, strict bool) Decision {
	var msg string
	switch {
	case v == VariantDestructive:
		return Decision{Verdict: VerdictAllow, Variant: v}
	case a.Destructive():
		msg = "Tool '" + name + "' is marked destructive by server, use call_tool_destructive"
	case v == VariantRead && a.ReadOnlyHint != nil && !*a.ReadOnlyHint:
		// The seed only checks destructiveHint; a read door that lets a declared writer through
		// would defeat the auto-approved read channel (and allow: [read]), so it is refused too.
		msg = "Tool '" + name + "' is marked not read-only by server, use call_tool_write"
	case v == VariantWrite && a.ReadOnly():
		return Decision{Verdict: VerdictWarn, Variant: v, Code: fault.UserIntentOverlyCautious,
			Warning: "Tool '" + name + "' is marked read-only by server, call_tool_read is enough"}
	default:
		return Decision{Verdict: VerdictAllow, Variant: v}
	}
	if strict {
		return refuse(v, fault.UserIntentServerMismatch, msg)
	}
	return Decision{Verdict: VerdictWarn, Variant: v, Code: fault.UserIntentServerMismatch,
		Warning: msg + " (allowed because strict_server_validation is false)"}
}

// ValidSensitivity reports whether s is one of Sensitivities.
func ValidSensitivity(s string) bool {
	return s == "public" || s == "internal" || s == "private" || s == "unknown"
}

func refuse(v Variant, code, msg string) Decision {
	return Decision{Verdict: VerdictRefuse, Variant: v, Code: code, Message: msg}
}

// toolNotAllowed explains that the step may not call this tool at all.
func toolNotAllowed(name string, callWith Variant, s RuleSettings) string {
	return "Tool '" + name + "' is not allowed in this step: it is a " + string(callWith) +
		" tool (" + SplitToolName(callWith) + ") and mcp_proxy.intent.allow lists " + allowedList(s) +
		"; pick another tool (retrieve_tools and tools/list show only the allowed ones)"
}

// allowedList names the allowed variants for a message: "read, write" or "no variant".
func allowedList(s RuleSettings) string {
	var names []string
	for _, v := range Variants {
		if s.Allows(v) {
			names = append(names, string(v))
		}
	}
	if len(names) == 0 {
		return "no variant"
	}
	return strings.Join(names, ", ")
}

// AllowedSplitTools names the split tools of the allowed variants as the seed's messages list
// them: "call_tool_read, call_tool_write, or call_tool_destructive", "call_tool_read or
// call_tool_write", "call_tool_read"; "" when nothing is allowed.
func (s RuleSettings) AllowedSplitTools() string {
	var names []string
	for _, v := range Variants {
		if s.Allows(v) {
			names = append(names, SplitToolName(v))
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	case 2:
		return names[0] + " or " + names[1]
	default:
		return strings.Join(names[:len(names)-1], ", ") + ", or " + names[len(names)-1]
	}
}

// maxEchoed bounds how much of a bad value a message repeats back.
const maxEchoed = 64

// clip shortens a value echoed in a message so a huge bad input cannot flood the reply.
func clip(s string) string {
	if len(s) <= maxEchoed {
		return s
	}
	cut := maxEchoed
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
