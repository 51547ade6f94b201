package routing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/tool"
)

const plantedSecret = "Zq7-longValue/with+Symbols=9kLmN0pQ"

// A secret planted in the tool name, the arguments, the error and the reason reaches no span,
// log line or record; an excerpt of it cut by the record's truncation neither.
func TestSecretsReachNoRecord(t *testing.T) {
	red := redact.New([]string{"DEPLOY_TOKEN=" + plantedSecret})
	bash := &fakeProvider{source: tool.BuiltinSource,
		defs: []tool.Definition{def("Bash", tool.BuiltinSource, `{"type":"object"}`)},
		call: func(context.Context, string, json.RawMessage) (tool.Result, error) {
			// the secret straddles the 1024-byte cut of the recorded error
			return tool.Error(strings.Repeat("x", maxRecordedString-10) + plantedSecret), nil
		}}
	h := newHarness(t, bash)
	h.r.opts.Redactor = red
	args, _ := json.Marshal(map[string]any{"command": "echo " + plantedSecret, "env": map[string]any{plantedSecret: []any{plantedSecret}}})
	h.r.CallTool(context.Background(), "Bash", args)
	h.r.CallTool(context.Background(), "No"+plantedSecret, args)
	e := NewExposure(h.r, split())
	e.CallTool(context.Background(), "call_tool_read", splitArgs(t, map[string]any{"name": "Bash", "intent_reason": "because " + plantedSecret}))

	var all strings.Builder
	for _, r := range h.sink.all() {
		fmt.Fprintf(&all, "%+v\n", r)
	}
	for _, s := range h.spans.Ended() {
		fmt.Fprintf(&all, "%s %v %v\n", s.Name(), s.Attributes(), s.Status())
	}
	for _, l := range h.logs.All() {
		fmt.Fprintf(&all, "%s %v\n", l.Message, l.ContextMap())
	}
	text := all.String()
	if len(h.sink.all()) != 3 {
		t.Fatalf("want 3 records, got %d", len(h.sink.all()))
	}
	for i := 0; i+redact.MinRun <= len(plantedSecret); i++ {
		if strings.Contains(text, plantedSecret[i:i+redact.MinRun]) {
			t.Fatalf("%q leaks into the records:\n%s", plantedSecret[i:i+redact.MinRun], text)
		}
	}
	if !strings.Contains(text, redact.Mask) {
		t.Errorf("nothing was masked:\n%s", text)
	}
}

// Every refusal and error carries its code; every record of a known tool carries the tool's own
// variant beside the declared one.
func TestRecordsCarryCodeAndToolVariant(t *testing.T) {
	destructive := tool.Annotations{DestructiveHint: tool.Bool(true)}
	bashDef := def("Bash", tool.BuiltinSource, `{"type":"object","properties":{"command":{"type":"string"}}}`)
	bashDef.Annotations = destructive
	failing := def("Fail", tool.BuiltinSource, `{"type":"object"}`)
	erroring := def("Err", tool.BuiltinSource, `{"type":"object"}`)
	slow := def("Slow", tool.BuiltinSource, `{"type":"object"}`)
	p := &fakeProvider{source: tool.BuiltinSource, defs: []tool.Definition{bashDef, failing, erroring, slow},
		call: func(ctx context.Context, name string, _ json.RawMessage) (tool.Result, error) {
			switch name {
			case "Fail":
				return tool.Result{}, errors.New("provider broke")
			case "Err":
				return tool.Error("no such file"), nil
			case "Slow":
				<-ctx.Done()
				return tool.Result{}, ctx.Err()
			}
			return tool.Text("ok"), nil
		}}
	h := newHarness(t, p)
	ctx := context.Background()
	nonStrict := NewExposure(h.r, IntentSettings{Strict: false})
	strict := NewExposure(h.r, DefaultIntentSettings())
	cancelled, cancel := context.WithCancel(ctx)
	cancel()

	nonStrict.Call(ctx, tool.VariantRead, "Bash", json.RawMessage(`{"command":"true"}`), tool.Intent{})
	strict.Call(ctx, tool.VariantRead, "Bash", json.RawMessage(`{"command":"true"}`), tool.Intent{})
	h.r.CallTool(ctx, "Nope", nil)
	h.r.CallTool(ctx, "Bash", json.RawMessage(`[1]`))
	h.r.CallTool(ctx, "Bash", json.RawMessage(`{"command":3}`))
	h.r.CallTool(ctx, "Fail", nil)
	h.r.CallTool(ctx, "Err", nil)
	h.r.CallTool(cancelled, "Slow", nil)
	NewExposure(h.r, split()).CallTool(ctx, "retrieve_tools", json.RawMessage(`{"query":"bash"}`))
	NewExposure(h.r, split()).CallTool(ctx, "retrieve_tools", json.RawMessage(`{"bogus":1}`))

	want := []struct {
		tool          string
		outcome       activity.Outcome
		code          string
		declared, own tool.Variant
	}{
		{"Bash", activity.OutcomeSuccess, fault.UserIntentServerMismatch, tool.VariantRead, tool.VariantDestructive},
		{"Bash", activity.OutcomeRefused, fault.UserIntentServerMismatch, tool.VariantRead, tool.VariantDestructive},
		{"Nope", activity.OutcomeError, fault.UserToolNotFound, "", ""},
		{"Bash", activity.OutcomeError, fault.UserToolInvalidArgs, "", tool.VariantDestructive},
		{"Bash", activity.OutcomeError, fault.UserToolInvalidArgs, tool.VariantDestructive, tool.VariantDestructive},
		{"Fail", activity.OutcomeError, fault.ExecutionToolFailed, tool.VariantWrite, tool.VariantWrite},
		{"Err", activity.OutcomeError, fault.ExecutionToolFailed, tool.VariantWrite, tool.VariantWrite},
		{"Slow", activity.OutcomeError, fault.ExecutionToolCancelled, tool.VariantWrite, tool.VariantWrite},
		{"retrieve_tools", activity.OutcomeSuccess, "", tool.VariantRead, tool.VariantRead},
		{"retrieve_tools", activity.OutcomeError, fault.UserToolInvalidArgs, tool.VariantRead, tool.VariantRead},
	}
	recs := h.sink.all()
	if len(recs) != len(want) {
		t.Fatalf("got %d records, want %d", len(recs), len(want))
	}
	for i, w := range want {
		r := recs[i]
		if r.Tool != w.tool || r.Outcome != w.outcome || r.Code != w.code || r.Intent.Variant != w.declared || r.ToolVariant != w.own {
			t.Errorf("record %d = %s %s code %q declared %q own %q; want %+v", i, r.Tool, r.Outcome, r.Code, r.Intent.Variant, r.ToolVariant, w)
		}
	}
	// The probe: a read declared on Bash (non-strict) is filed as destructive.
	if got := recs[0].Effective(); got != tool.VariantDestructive {
		t.Errorf("effective variant of a read on Bash = %q", got)
	}
	if recs[8].Source != AwfSource || recs[8].Arguments["query"] != "bash" || recs[9].Arguments["bogus"] != 1.0 {
		t.Errorf("retrieve_tools record: %+v", recs[8])
	}
	// The span carries the tool's own variant beside the declared one; an unknown tool has none.
	spans := h.spans.Ended()
	if v := attrs(spans[0])["awf.tool.variant"]; v.AsString() != "destructive" {
		t.Errorf("span awf.tool.variant = %v", v)
	}
	if _, ok := attrs(spans[2])["awf.tool.variant"]; ok {
		t.Error("an unknown tool's span has a tool variant")
	}
	if logged := h.logs.FilterField(zap.String("code", fault.UserToolNotFound)).Len(); logged != 1 {
		t.Errorf("the not-found code was logged %d times", logged)
	}
}
