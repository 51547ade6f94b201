package routing

import (
	"context"
	"encoding/json"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// Refuse records a call that a layer in front of the router refused before it could be
// dispatched (the split exposure: a closed variant, arguments given twice, args_json that is not
// an object, a tool called by its own name) and returns the refusal for the agent. Such a call
// gets what every call gets: one span, one log line and one activity record, with outcome
// refused and the declared intent, so nothing an agent tried is missing from the record.
//
// name is the tool the agent meant (it may be unknown); args are recorded when they are a JSON
// object and ignored otherwise; dec must be a refusal (its Message is what the agent reads).
func (r *Router) Refuse(ctx context.Context, name string, args json.RawMessage, declared tool.Declaration, dec tool.Decision) tool.Result {
	c, ctx, span := r.begin(ctx, name)
	defer func() { r.finish(ctx, span, c) }()
	if e, ok := r.cat.Load().entries[name]; ok {
		c.source = e.def.Source
		c.toolVariant = tool.CallWith(e.def.Annotations)
	}
	if _, obj, msg := parseArgs(args); msg == "" {
		c.args = obj
	}
	dec.Verdict = tool.VerdictRefuse
	if dec.Variant == "" {
		dec.Variant = declared.Variant
	}
	d := toDecision(dec, declared)
	c.intent, c.code = d.Intent, d.Code
	msg := d.Message
	if msg == "" {
		msg = "tool " + c.name + " was refused by the step's tool policy"
	}
	code := d.Code
	if code == "" {
		code = fault.UserIntentNotAllowed
	}
	return c.fail(activity.OutcomeRefused, code, msg)
}
