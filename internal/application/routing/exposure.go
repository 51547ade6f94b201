package routing

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// Exposure is what one agent step sees of a Router: which tools tools/list shows and what
// tools/call does, under the step's intent settings (docs/design.md#the-intent-rule). Every path
// that serves an agent (mcp-serve, the in-process OpenAI provider) lists and calls through an
// Exposure, and `awf call tool-<variant>` calls through Exposure.Call, so the intent rule is the
// same on all of them.
//
//   - Direct mode (Split false): tools keep their names; a tool whose CallWith the step does not
//     allow is absent from the list and refused at call time.
//   - Split mode: the list is retrieve_tools plus call_tool_read / call_tool_write /
//     call_tool_destructive (minus the variants not allowed); the variant is the tool called.
//
// Every call, refused or not, is instrumented by the router (span, log line, activity record);
// the exposure itself records nothing. An Exposure is immutable and safe for concurrent use; it
// reads the router's current definitions on every list and call, so annotations changed by
// Router.Refresh apply at once.
type Exposure struct {
	r    *Router
	s    IntentSettings
	rule tool.RuleSettings
	// opts are the call options of a direct call, built once so a call does not allocate them.
	opts  callOptions
	split []tool.Definition // the split-mode list, built once
}

// RetrieveToolsName is the split-mode discovery tool.
const RetrieveToolsName = "retrieve_tools"

// NewExposure returns the view of r that a step with settings s gets. The settings are copied.
func NewExposure(r *Router, s IntentSettings) *Exposure {
	s.Allow = cloneVariants(s.Allow)
	e := &Exposure{r: r, s: s, rule: s.Rule()}
	var policy Policy = IntentPolicy{Settings: e.rule}
	if len(s.Ask) > 0 {
		ap := ApprovalPolicy{Inner: policy, Ask: cloneVariants(s.Ask), Approver: s.Approver}
		if r != nil {
			ap.RunID, ap.Step = r.opts.RunID, r.opts.Step
		}
		policy = ap
	}
	e.opts = callOptions{policy: policy, visible: e.visible}
	if s.Split {
		e.split = splitDefinitions(s)
	}
	return e
}

// Settings returns the exposure's intent settings.
func (e *Exposure) Settings() IntentSettings {
	s := e.s
	s.Allow = cloneVariants(s.Allow)
	return s
}

// ListTools is what tools/list shows: in direct mode the router's tools the step may call, in
// registration order; in split mode the four split tools minus the variants not allowed.
func (e *Exposure) ListTools() []tool.Definition {
	if e.s.Split {
		return append([]tool.Definition(nil), e.split...)
	}
	return e.callable()
}

// callable returns the router's current tools whose CallWith the step allows.
func (e *Exposure) callable() []tool.Definition {
	all := e.r.ListTools()
	out := all[:0]
	for _, d := range all {
		if e.visible(d) {
			out = append(out, d)
		}
	}
	return out
}

// visible reports whether the step may call def at all.
func (e *Exposure) visible(def tool.Definition) bool {
	return e.rule.Allows(tool.CallWith(def.Annotations))
}

// CallTool is what tools/call does. In direct mode it calls the tool by its name, its variant
// being its CallWith. In split mode it runs retrieve_tools or a call_tool_* variant; any other
// name (a tool's own name, the legacy call_tool) is refused with the hint to use the variants.
func (e *Exposure) CallTool(ctx context.Context, name string, args json.RawMessage) tool.Result {
	if !e.s.Split {
		return e.r.invoke(ctx, name, args, e.opts)
	}
	if name == RetrieveToolsName {
		return e.r.local(ctx, name, args, func() tool.Result { return e.retrieve(args) })
	}
	for _, v := range tool.Variants {
		if name == tool.SplitToolName(v) {
			return e.callSplit(ctx, v, args)
		}
	}
	return e.r.Refuse(ctx, name, args, tool.Declaration{}, tool.Decision{Code: fault.UserIntentToolNotFound, Message: e.splitNotFound(name)})
}

// Call runs one call through variant v with a declared intent, as `awf call tool-<v>` does. As
// the seed's CLI does, the operation type is declared by the command itself: it is v unless
// declared.OperationType says otherwise (and then must equal v). It works in both modes.
func (e *Exposure) Call(ctx context.Context, v tool.Variant, name string, args json.RawMessage, declared tool.Intent) tool.Result {
	d := tool.Declaration{
		Variant:         v,
		Nested:          true,
		OperationType:   declared.OperationType,
		DataSensitivity: declared.DataSensitivity,
		Reason:          declared.Reason,
	}
	if d.OperationType == "" {
		d.OperationType = string(v)
	}
	if dec := tool.CheckVariant(v, e.rule); !dec.Allowed() {
		return e.r.Refuse(ctx, name, args, d, dec)
	}
	o := e.opts
	o.declared = d
	return e.r.invoke(ctx, name, args, o)
}

// callSplit runs call_tool_<v>: it reads name, the tool's arguments and the declared intent from
// args, and passes the call to the router, which applies the rule and dispatches.
func (e *Exposure) callSplit(ctx context.Context, v tool.Variant, raw json.RawMessage) tool.Result {
	sc, problem := parseSplitCall(v, raw)
	name := sc.name
	if name == "" {
		name = tool.SplitToolName(v)
	}
	recorded := raw
	if sc.args != nil {
		recorded = sc.args
	}
	if dec := tool.CheckVariant(v, e.rule); !dec.Allowed() {
		return e.r.Refuse(ctx, name, recorded, sc.decl, dec)
	}
	if problem != nil {
		return e.r.Refuse(ctx, name, recorded, sc.decl, *problem)
	}
	o := e.opts
	o.declared = sc.decl
	return e.r.invoke(ctx, sc.name, sc.args, o)
}

// splitNotFound is the seed's message for a name that is not a split tool, listing only the
// variants the step allows.
func (e *Exposure) splitNotFound(name string) string {
	use := e.rule.AllowedSplitTools()
	if use == "" {
		return "Tool '" + clipName(name) + "' not found. This step allows no call_tool_* variant (mcp_proxy.intent.allow is empty)."
	}
	return "Tool '" + clipName(name) + "' not found. Use " + use +
		" with matching intent.operation_type. See retrieve_tools for annotations and recommendations."
}

// clipName bounds a name echoed in a message.
func clipName(name string) string {
	if clipped := truncateString(name, 2*maxToolName); clipped != name {
		return strings.ToValidUTF8(clipped, "")
	}
	return name
}
