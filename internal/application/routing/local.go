package routing

import (
	"context"
	"encoding/json"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// AwfSource is the source of the tools the exposure answers itself (retrieve_tools).
const AwfSource tool.Source = "awf"

// local instruments a call that awf answers itself without a provider, such as retrieve_tools:
// it only reads, yet it is what an agent did, so it gets one span, one log line and one activity
// record like any other call. An error result is recorded with USER.TOOL.INVALID_ARGS, the only
// way such a call fails.
func (r *Router) local(ctx context.Context, name string, args json.RawMessage, answer func() tool.Result) tool.Result {
	c, ctx, span := r.begin(ctx, name)
	defer func() { r.finish(ctx, span, c) }()
	c.source = AwfSource
	c.toolVariant = tool.VariantRead
	c.intent = tool.Intent{Variant: tool.VariantRead, OperationType: string(tool.VariantRead), Decision: DecisionAllow}
	if _, obj, msg := parseArgs(args); msg == "" {
		c.args = obj
	}
	res := answer()
	if res.IsError {
		return c.fail(activity.OutcomeError, fault.UserToolInvalidArgs, res.JoinedText())
	}
	return res
}
