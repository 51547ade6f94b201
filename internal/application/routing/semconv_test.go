package routing

import (
	"context"
	"encoding/json"
	"testing"

	"go.opentelemetry.io/otel/attribute"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// The call's span follows the GenAI conventions' execute_tool span: error.type says why a call
// failed (tool_error for an isError answer, the router's code for its own failures, nothing
// for a success), gen_ai.tool.call.id is the model's call id when the caller gave one, and
// ConventionsOnly (OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental) drops awf's
// duplicates of the names the conventions cover.
func TestSpanFollowsTheGenAIConventions(t *testing.T) {
	tests := []struct {
		name, tool, args, callID string
		isError, conventionsOnly bool
		wantErrType              string
	}{
		{name: "success", tool: "Read", args: `{"file_path":"a"}`, callID: "call_7"},
		{name: "isError answer", tool: "Read", args: `{"file_path":"a"}`, isError: true, wantErrType: "tool_error"},
		{name: "bad arguments", tool: "Read", args: `{"file_path":1}`, wantErrType: "USER.TOOL.INVALID_ARGS"},
		{name: "unknown tool", tool: "Nope", args: `{}`, wantErrType: "USER.TOOL.NOT_FOUND"},
		{name: "conventions only", tool: "Read", args: `{"file_path":"a"}`, isError: true, conventionsOnly: true, wantErrType: "tool_error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := builtins()
			p.call = func(context.Context, string, json.RawMessage) (tool.Result, error) {
				if tc.isError {
					return tool.Error("it broke"), nil
				}
				return tool.Text("ok"), nil
			}
			h := newHarness(t, p)
			h.r.opts.ConventionsOnly = tc.conventionsOnly
			h.r.CallTool(tool.WithCallID(context.Background(), tc.callID), tc.tool, json.RawMessage(tc.args))
			ended := h.spans.Ended()
			if len(ended) != 1 {
				t.Fatalf("%d spans", len(ended))
			}
			s := ended[0]
			a := attrs(s)
			if s.Name() != "execute_tool "+tc.tool || a["gen_ai.tool.name"].AsString() != tc.tool || a["gen_ai.operation.name"].AsString() != "execute_tool" {
				t.Errorf("span %q, gen_ai.tool.name %q, gen_ai.operation.name %q", s.Name(), a["gen_ai.tool.name"].AsString(), a["gen_ai.operation.name"].AsString())
			}
			if got := a["error.type"].AsString(); got != tc.wantErrType {
				t.Errorf("error.type = %q, want %q", got, tc.wantErrType)
			}
			if got := a["gen_ai.tool.call.id"].AsString(); got != tc.callID {
				t.Errorf("gen_ai.tool.call.id = %q, want %q", got, tc.callID)
			}
			_, hasName := a["awf.tool.name"]
			_, hasErr := a["error"]
			if hasName == tc.conventionsOnly || (tc.wantErrType != "" && hasErr == tc.conventionsOnly) {
				t.Errorf("awf.tool.name present %v, error present %v, with ConventionsOnly %v", hasName, hasErr, tc.conventionsOnly)
			}
			if _, ok := a[attribute.Key("awf.tool.source")]; tc.tool == "Read" && !ok {
				t.Error("awf's own awf.tool.source is gone")
			}
		})
	}
}
