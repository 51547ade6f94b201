package routing

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// TestRefusedSplitCallRecordsTheToolsArguments: a refused call_tool_* records the arguments meant
// for the tool, not the wrapper around them (name, intent …), whichever layer refuses it.
func TestRefusedSplitCallRecordsTheToolsArguments(t *testing.T) {
	readOnly := split()
	readOnly.Allow = []tool.Variant{tool.VariantRead}
	tests := []struct {
		name     string
		settings IntentSettings
		variant  string
		params   map[string]any
	}{
		{"server mismatch", split(), "call_tool_read", map[string]any{"name": "destr", "args": map[string]any{"q": "x"}}},
		{"closed variant", readOnly, "call_tool_write", map[string]any{"name": "none", "args_json": `{"q":"x"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newExposureHarness(t, tt.settings)
			res := h.e.CallTool(context.Background(), tt.variant, splitArgs(t, tt.params))
			recs := h.sink.all()
			if !res.IsError || len(recs) != 1 {
				t.Fatalf("result %+v, %d records; want one refusal", res, len(recs))
			}
			if rec := recs[0]; rec.Outcome != activity.OutcomeRefused || len(rec.Arguments) != 1 || rec.Arguments["q"] != "x" || rec.Source != tool.PluginSource("srv") {
				t.Errorf("refusal record = %+v, want the tool's own arguments {q: x} and its source", rec)
			}
		})
	}
}

// TestRefuseDirectly covers Router.Refuse as other front layers call it: the declared variant
// fills a decision without one, a decision without a message gets the policy sentence, and
// arguments that are no JSON object are left out of the record.
func TestRefuseDirectly(t *testing.T) {
	h := newHarness(t, builtins())
	declared := tool.Declaration{Variant: tool.VariantWrite, Reason: "tidy"}
	res := h.r.Refuse(context.Background(), "Write", json.RawMessage(`["not","an","object"]`), declared, tool.Decision{})
	if !res.IsError || res.JoinedText() != "tool Write was refused by the step's tool policy" {
		t.Fatalf("Refuse = %+v", res)
	}
	rec := h.sink.all()[0]
	if rec.Intent.Variant != tool.VariantWrite || rec.Intent.Reason != "tidy" || rec.Intent.Decision != DecisionRefuse ||
		rec.Arguments != nil || rec.Source != tool.BuiltinSource || rec.Outcome != activity.OutcomeRefused {
		t.Errorf("record = %+v", rec)
	}

	res = h.r.Refuse(context.Background(), "Read", json.RawMessage(`{"file_path":"a"}`), declared,
		tool.Decision{Variant: tool.VariantRead, Message: "no reading today"})
	if res.JoinedText() != "no reading today" {
		t.Errorf("Refuse message = %q", res.JoinedText())
	}
	if rec := h.sink.all()[1]; rec.Intent.Variant != tool.VariantRead || rec.Arguments["file_path"] != "a" {
		t.Errorf("record = %+v, want the decision's variant and the arguments", rec)
	}
}

func TestLogLineCarriesTheTraceID(t *testing.T) {
	h := newHarness(t, builtins())
	h.r.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":"a"}`))
	line := h.logs.AllUntimed()[0].ContextMap()
	want := h.spans.Ended()[0].SpanContext().TraceID().String()
	if line["trace_id"] != want || h.sink.all()[0].TraceID != want {
		t.Errorf("log trace_id = %v, record %q; want %s", line["trace_id"], h.sink.all()[0].TraceID, want)
	}

	// Without a tracer there is no trace: no empty trace_id field.
	r := newTestRouter(t, Options{Logger: h.r.opts.Logger, Activity: h.sink}, builtins())
	r.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":"a"}`))
	if _, ok := h.logs.AllUntimed()[1].ContextMap()["trace_id"]; ok {
		t.Errorf("log line without a trace has a trace_id: %v", h.logs.AllUntimed()[1].ContextMap())
	}
}

func TestIntentGivenTwiceTheSameWay(t *testing.T) {
	h := newExposureHarness(t, split())
	res := h.e.CallTool(context.Background(), "call_tool_write", splitArgs(t, map[string]any{
		"name": "none", "intent": map[string]any{"reason": "same", "intent_reason": "same"},
	}))
	if res.IsError || h.sink.all()[0].Intent.Reason != "same" {
		t.Fatalf("the same reason under both spellings = %+v, record %+v", res, h.sink.all()[0])
	}
	res = h.e.CallTool(context.Background(), "call_tool_write", splitArgs(t, map[string]any{
		"name": "none", "intent": map[string]any{"reason": "one", "intent_reason": "two"},
	}))
	if !res.IsError || !strings.Contains(res.JoinedText(), "intent gives reason twice with different values") {
		t.Fatalf("two different reasons = %+v", res)
	}
}

// TestUnknownSplitNameIsClipped: a name up to twice the longest tool name is echoed whole, a
// longer one is cut.
func TestUnknownSplitNameIsClipped(t *testing.T) {
	h := newExposureHarness(t, split())
	exact := strings.Repeat("n", 2*maxToolName)
	res := h.e.CallTool(context.Background(), exact, nil)
	if !strings.Contains(res.JoinedText(), "Tool '"+exact+"' not found") {
		t.Errorf("a %d-byte name was clipped: %.80q", len(exact), res.JoinedText())
	}
	res = h.e.CallTool(context.Background(), exact+"x", nil)
	if strings.Contains(res.JoinedText(), exact+"x") || !strings.Contains(res.JoinedText(), exact+"…[truncated 1 bytes]") {
		t.Errorf("a %d-byte name was not clipped: %.80q", len(exact)+1, res.JoinedText())
	}
}
