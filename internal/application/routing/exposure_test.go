package routing

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// annotated returns a provider serving one no-argument tool per kind of annotation, named after
// the kind, plus the Read/Write pair of builtins() with their real hints.
func annotated() *fakeProvider {
	src := tool.PluginSource("srv")
	mk := func(name string, a tool.Annotations) tool.Definition {
		d := def(name, src, `{"type":"object"}`)
		d.Annotations = a
		return d
	}
	return &fakeProvider{source: src, defs: []tool.Definition{
		mk("ro", tool.Annotations{ReadOnlyHint: tool.Bool(true)}),
		mk("destr", tool.Annotations{DestructiveHint: tool.Bool(true)}),
		mk("none", tool.Annotations{}),
		mk("both", tool.Annotations{ReadOnlyHint: tool.Bool(true), DestructiveHint: tool.Bool(true)}),
		mk("writer", tool.Annotations{ReadOnlyHint: tool.Bool(false), DestructiveHint: tool.Bool(false)}),
	}}
}

// anyKinds are the tools standing for the seeds' "any" annotation column.
var anyKinds = []string{"ro", "destr", "none", "both", "writer"}

type exposureHarness struct {
	*harness
	e *Exposure
	p *fakeProvider
}

func newExposureHarness(t *testing.T, s IntentSettings) *exposureHarness {
	t.Helper()
	p := annotated()
	h := newHarness(t, p)
	return &exposureHarness{harness: h, e: NewExposure(h.r, s), p: p}
}

func split() IntentSettings { s := DefaultIntentSettings(); s.Split = true; return s }

// splitArgs builds call_tool_* arguments from a Go value.
func splitArgs(t testing.TB, v map[string]any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// outcome is what a call is expected to produce.
type outcome struct {
	verdict tool.Verdict
	text    string // refusal text (exact) or warning (exact); "" for a plain allow
	code    string
}

var allowed = outcome{verdict: tool.VerdictAllow}

func refused(code, text string) outcome { return outcome{tool.VerdictRefuse, text, code} }
func warned(code, text string) outcome  { return outcome{tool.VerdictWarn, text, code} }

// check asserts a call's result, its dispatch and its one activity record.
func (h *exposureHarness) check(t *testing.T, res tool.Result, want outcome, variant tool.Variant) {
	t.Helper()
	recs := h.sink.all()
	if len(recs) == 0 {
		t.Fatal("no activity record")
	}
	rec := recs[len(recs)-1]
	switch want.verdict {
	case tool.VerdictRefuse:
		if !res.IsError || res.JoinedText() != want.text {
			t.Fatalf("result = %+v\nwant refusal %q", res, want.text)
		}
		if rec.Outcome != activity.OutcomeRefused || rec.Error != want.text || rec.Intent.Decision != DecisionRefuse {
			t.Errorf("refusal record = %+v", rec)
		}
	default:
		if res.IsError {
			t.Fatalf("call refused: %q", res.JoinedText())
		}
		if rec.Outcome != activity.OutcomeSuccess || rec.Intent.Decision != string(want.verdict) || rec.Intent.Warning != want.text {
			t.Errorf("record = %+v, want decision %s warning %q", rec, want.verdict, want.text)
		}
	}
	if rec.Intent.Variant != variant {
		t.Errorf("recorded variant = %q, want %q", rec.Intent.Variant, variant)
	}
	logs := h.logs.AllUntimed()
	if f := logs[len(logs)-1].ContextMap(); f["code"] != nilIfEmpty(want.code) {
		t.Errorf("log code = %v, want %q", f["code"], want.code)
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

const (
	destrMsg = "Tool 'destr' is marked destructive by server, use call_tool_destructive"
	bothMsg  = "Tool 'both' is marked destructive by server, use call_tool_destructive"
)

// matrixRow is one row of a seed validation matrix, run end to end through tools/call.
type matrixRow struct {
	name    string
	variant tool.Variant
	op      string // nested intent.operation_type; "-" for no nested intent at all
	tool    string
	want    outcome
}

func runMatrix(t *testing.T, s IntentSettings, rows []matrixRow, flat bool) {
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			h := newExposureHarness(t, s)
			params := map[string]any{"name": row.tool, "args": map[string]any{}}
			if flat {
				params["intent_data_sensitivity"], params["intent_reason"] = "internal", "seed row"
			}
			if row.op != "-" {
				params["intent"] = map[string]any{"operation_type": row.op}
			}
			before := h.p.calls.Load()
			res := h.e.CallTool(context.Background(), tool.SplitToolName(row.variant), splitArgs(t, params))
			h.check(t, res, row.want, row.variant)
			if dispatched := h.p.calls.Load() > before; dispatched != (row.want.verdict != tool.VerdictRefuse) {
				t.Errorf("dispatched = %v for verdict %s", dispatched, row.want.verdict)
			}
		})
	}
}

// TestExposureSeed002Matrix runs every row of seed 002's "Validation Matrix" (the nested, two-key
// form) through call_tool_*; "any" rows are run against every kind of annotation and row 11
// (intent missing) with require_declaration, for each variant.
func TestExposureSeed002Matrix(t *testing.T) {
	rows := []matrixRow{
		{"002 row1 read/read/readOnlyHint=true ALLOW", tool.VariantRead, "read", "ro", allowed},
		{"002 row2 read/read/destructiveHint=true REJECT", tool.VariantRead, "read", "destr", refused(fault.UserIntentServerMismatch, destrMsg)},
		{"002 row3 read/read/no annotation ALLOW", tool.VariantRead, "read", "none", allowed},
		{"002 row5 write/write/readOnlyHint=true WARN+ALLOW", tool.VariantWrite, "write", "ro",
			warned(fault.UserIntentOverlyCautious, "Tool 'ro' is marked read-only by server, call_tool_read is enough")},
		{"002 row6 write/write/destructiveHint=true REJECT", tool.VariantWrite, "write", "destr", refused(fault.UserIntentServerMismatch, destrMsg)},
		{"002 row7 write/write/no annotation ALLOW", tool.VariantWrite, "write", "none", allowed},
	}
	for _, k := range anyKinds {
		rows = append(rows,
			matrixRow{"002 row4 read/write/any=" + k + " REJECT mismatch", tool.VariantRead, "write", k,
				refused(fault.UserIntentMismatch, "Intent mismatch: tool is call_tool_read but intent declares write")},
			matrixRow{"002 row8 write/destructive/any=" + k + " REJECT mismatch", tool.VariantWrite, "destructive", k,
				refused(fault.UserIntentMismatch, "Intent mismatch: tool is call_tool_write but intent declares destructive")},
			matrixRow{"002 row9 destructive/destructive/any=" + k + " ALLOW", tool.VariantDestructive, "destructive", k, allowed},
			matrixRow{"002 row10 destructive/read/any=" + k + " REJECT mismatch", tool.VariantDestructive, "read", k,
				refused(fault.UserIntentMismatch, "Intent mismatch: tool is call_tool_destructive but intent declares read")},
		)
	}
	runMatrix(t, split(), rows, false)

	req := split()
	req.RequireDeclaration = true
	var missing []matrixRow
	for _, k := range anyKinds {
		for _, v := range tool.Variants {
			missing = append(missing,
				matrixRow{"002 row11 " + string(v) + "/missing intent/any=" + k + " REJECT", v, "-", k,
					refused(fault.UserIntentMissingIntent, "intent parameter is required for "+tool.SplitToolName(v))},
				matrixRow{"002 row11 " + string(v) + "/missing operation_type/any=" + k + " REJECT", v, "", k,
					refused(fault.UserIntentMissingOperationType, "intent.operation_type is required")},
			)
		}
	}
	runMatrix(t, req, missing, false)
}

// TestExposureSeed003Matrix runs every row of seed 003's "Server Annotation Validation" table
// (the flat form: operation type inferred, intent_* strings) through call_tool_*.
func TestExposureSeed003Matrix(t *testing.T) {
	rows := []matrixRow{
		{"003 row1 call_tool_read/readOnlyHint=true ALLOW", tool.VariantRead, "-", "ro", allowed},
		{"003 row2 call_tool_read/destructiveHint=true REJECT", tool.VariantRead, "-", "destr", refused(fault.UserIntentServerMismatch, destrMsg)},
		{"003 row3 call_tool_read/no annotation ALLOW", tool.VariantRead, "-", "none", allowed},
		{"003 row4 call_tool_write/readOnlyHint=true WARN+ALLOW", tool.VariantWrite, "-", "ro",
			warned(fault.UserIntentOverlyCautious, "Tool 'ro' is marked read-only by server, call_tool_read is enough")},
		{"003 row5 call_tool_write/destructiveHint=true REJECT", tool.VariantWrite, "-", "destr", refused(fault.UserIntentServerMismatch, destrMsg)},
		{"003 row6 call_tool_write/no annotation ALLOW", tool.VariantWrite, "-", "none", allowed},
	}
	for _, k := range anyKinds {
		rows = append(rows, matrixRow{"003 row7 call_tool_destructive/any=" + k + " ALLOW", tool.VariantDestructive, "-", k, allowed})
	}
	runMatrix(t, split(), rows, true)
}

func TestExposureIntentBeyondTheMatrices(t *testing.T) {
	lenient := split()
	lenient.Strict = false
	readOnly := split()
	readOnly.Allow = []tool.Variant{tool.VariantRead}
	runMatrix(t, split(), []matrixRow{
		{"both hints: read refused", tool.VariantRead, "-", "both", refused(fault.UserIntentServerMismatch, bothMsg)},
		{"both hints: write refused", tool.VariantWrite, "write", "both", refused(fault.UserIntentServerMismatch, bothMsg)},
		{"both hints: destructive allowed", tool.VariantDestructive, "-", "both", allowed},
		{"explicit writer through the read door refused", tool.VariantRead, "-", "writer",
			refused(fault.UserIntentServerMismatch, "Tool 'writer' is marked not read-only by server, use call_tool_write")},
		{"unknown operation_type", tool.VariantRead, "unknown", "ro",
			refused(fault.UserIntentInvalidOperationType, "Invalid intent.operation_type 'unknown': must be read, write, or destructive")},
	}, false)
	runMatrix(t, lenient, []matrixRow{
		{"non-strict read on destructive warns", tool.VariantRead, "-", "destr",
			warned(fault.UserIntentServerMismatch, destrMsg+" (allowed because strict_server_validation is false)")},
		{"non-strict write on both hints warns", tool.VariantWrite, "-", "both",
			warned(fault.UserIntentServerMismatch, bothMsg+" (allowed because strict_server_validation is false)")},
		{"non-strict mismatch still refused", tool.VariantWrite, "read", "none",
			refused(fault.UserIntentMismatch, "Intent mismatch: tool is call_tool_write but intent declares read")},
	}, false)
	runMatrix(t, readOnly, []matrixRow{
		{"allow [read]: read-only tool", tool.VariantRead, "-", "ro", allowed},
		{"allow [read]: unannotated tool refused", tool.VariantRead, "-", "none", refused(fault.UserIntentNotAllowed,
			"Tool 'none' is not allowed in this step: it is a write tool (call_tool_write) and mcp_proxy.intent.allow lists read; pick another tool (retrieve_tools and tools/list show only the allowed ones)")},
		{"allow [read]: write door refused", tool.VariantWrite, "-", "ro", refused(fault.UserIntentNotAllowed,
			"call_tool_write is not allowed in this step: mcp_proxy.intent.allow lists read; use call_tool_read instead, or ask the workflow author to add write to mcp_proxy.intent.allow")},
	}, false)
}

func TestSplitCallParameters(t *testing.T) {
	big := strings.Repeat("r", 1001)
	tests := []struct {
		name   string
		params string
		want   outcome
		args   string // the arguments the tool received, when allowed
	}{
		{"args object", `{"name":"none","args":{"k":1}}`, allowed, `{"k":1}`},
		{"args_json string", `{"name":"none","args_json":"{\"k\": 2}"}`, allowed, `{"k": 2}`},
		{"no arguments", `{"name":"none"}`, allowed, `{}`},
		{"null args and empty args_json", `{"name":"none","args":null,"args_json":""}`, allowed, `{}`},
		{"args and args_json both", `{"name":"none","args":{},"args_json":"{}"}`, refused(fault.UserIntentArgsConflict,
			"args and args_json were both given: pass the tool's arguments once, either as an object in args or as a JSON string in args_json"), ""},
		{"args_json not JSON", `{"name":"none","args_json":"{k:1}"}`, refused(fault.UserIntentInvalidArgs,
			`args_json is not valid JSON (invalid character 'k' looking for beginning of object key string): give the tool's arguments as a JSON object string such as "{\"file_path\": \"a.txt\"}", or as an object in args`), ""},
		{"args_json an array", `{"name":"none","args_json":"[1]"}`, refused(fault.UserIntentInvalidArgs,
			`args_json must hold a JSON object, got array: give the tool's arguments as a JSON object string such as "{\"file_path\": \"a.txt\"}"`), ""},
		{"args_json an object", `{"name":"none","args_json":{"k":1}}`, refused(fault.UserIntentInvalidArgs,
			"args_json must be a string holding a JSON object, got object; to pass an object directly use args"), ""},
		{"args a string", `{"name":"none","args":"{}"}`, refused(fault.UserIntentInvalidArgs,
			`args must be a JSON object holding the tool's arguments, such as {"file_path": "a.txt"}, got string`), ""},
		{"missing name", `{"args":{}}`, refused(fault.UserIntentMissingName,
			"name is required: give the name of the tool to call with call_tool_write, as listed by retrieve_tools"), ""},
		{"no arguments at all", ``, refused(fault.UserIntentMissingName,
			"name is required: give the name of the tool to call with call_tool_write, as listed by retrieve_tools"), ""},
		{"name not a string", `{"name":5}`, refused(fault.UserIntentInvalidCall, "name of call_tool_write must be a string (the tool's name), got integer"), ""},
		{"arguments not an object", `[1]`, refused(fault.UserIntentInvalidCall,
			`the arguments of call_tool_write must be a JSON object such as {"name": "Read", "args": {"file_path": "a.txt"}}`), ""},
		{"unknown parameter", `{"name":"none","arguments":{}}`, refused(fault.UserIntentInvalidCall,
			`call_tool_write has no parameter "arguments" (did you mean "args"?); its parameters are name, args, args_json, intent_data_sensitivity, intent_reason, intent`), ""},
		{"typo parameter", `{"name":"none","intent_reasn":"x"}`, refused(fault.UserIntentInvalidCall,
			`call_tool_write has no parameter "intent_reasn" (did you mean "intent_reason"?); its parameters are name, args, args_json, intent_data_sensitivity, intent_reason, intent`), ""},
		// intent, flat and nested
		{"flat intent", `{"name":"none","intent_data_sensitivity":"private","intent_reason":"why"}`, allowed, `{}`},
		{"nested intent", `{"name":"none","intent":{"operation_type":"write","data_sensitivity":"public","reason":"why"}}`, allowed, `{}`},
		{"nested intent with the seed's intent_* keys", `{"name":"none","intent":{"intent_data_sensitivity":"private","intent_reason":"why"}}`, allowed, `{}`},
		{"flat and nested agree", `{"name":"none","intent_reason":"why","intent":{"reason":"why"}}`, allowed, `{}`},
		{"flat and nested differ", `{"name":"none","intent_reason":"a","intent":{"reason":"b"}}`, refused(fault.UserIntentConflict,
			"intent_reason and intent.reason differ: give the reason once, either flat or in the intent object"), ""},
		{"bad flat sensitivity", `{"name":"none","intent_data_sensitivity":"secret"}`, refused(fault.UserIntentInvalidSensitivity,
			"Invalid intent.data_sensitivity 'secret': must be public, internal, private, or unknown"), ""},
		{"bad nested sensitivity", `{"name":"none","intent":{"data_sensitivity":"secret"}}`, refused(fault.UserIntentInvalidSensitivity,
			"Invalid intent.data_sensitivity 'secret': must be public, internal, private, or unknown"), ""},
		{"reason too long", `{"name":"none","intent_reason":"` + big + `"}`, refused(fault.UserIntentReasonTooLong,
			"intent.reason exceeds maximum length of 1000 characters"), ""},
		{"sensitivity not a string", `{"name":"none","intent_data_sensitivity":3}`, refused(fault.UserIntentInvalidCall,
			"intent_data_sensitivity of call_tool_write must be a string, got integer"), ""},
		{"intent not an object", `{"name":"none","intent":"write"}`, refused(fault.UserIntentInvalidCall,
			`intent of call_tool_write must be an object such as {"operation_type": "write", "reason": "why"}, got string`), ""},
		{"unknown intent field", `{"name":"none","intent":{"kind":"write"}}`, refused(fault.UserIntentInvalidCall,
			`intent has no field "kind"; its fields are operation_type, data_sensitivity and reason`), ""},
		{"null intent is no intent", `{"name":"none","intent":null}`, allowed, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newExposureHarness(t, split())
			res := h.e.CallTool(context.Background(), "call_tool_write", json.RawMessage(tt.params))
			h.check(t, res, tt.want, tool.VariantWrite)
			if tt.want.verdict == tool.VerdictRefuse {
				if h.p.calls.Load() != 0 {
					t.Error("refused call was dispatched")
				}
				return
			}
			if got := string(h.p.lastArgs.Load().(json.RawMessage)); got != tt.args {
				t.Errorf("tool got args %s, want %s", got, tt.args)
			}
		})
	}
}

func TestSplitRecordsDeclaredIntent(t *testing.T) {
	h := newExposureHarness(t, split())
	reason := strings.Repeat("é", 1000) // the longest accepted reason, 2000 bytes
	h.e.CallTool(context.Background(), "call_tool_read", splitArgs(t, map[string]any{
		"name": "ro", "args_json": `{"q":"x"}`, "intent": map[string]any{"operation_type": "read", "data_sensitivity": "private", "reason": reason},
	}))
	h.e.CallTool(context.Background(), "call_tool_write", splitArgs(t, map[string]any{"name": "none"}))
	recs := h.sink.all()
	if len(recs) != 2 {
		t.Fatalf("records = %d", len(recs))
	}
	want := tool.Intent{Variant: tool.VariantRead, OperationType: "read", DataSensitivity: "private", Reason: reason, Decision: DecisionAllow}
	if recs[0].Intent != want || recs[0].Tool != "ro" || recs[0].Arguments["q"] != "x" || recs[0].Source != tool.PluginSource("srv") {
		t.Errorf("declared record = %+v", recs[0])
	}
	inferred := tool.Intent{Variant: tool.VariantWrite, OperationType: "write", Decision: DecisionAllow}
	if recs[1].Intent != inferred {
		t.Errorf("inferred intent = %+v, want %+v", recs[1].Intent, inferred)
	}
	span := attrs(h.spans.Ended()[0])
	for k, v := range map[string]string{
		"awf.intent.variant": "read", "awf.intent.operation_type": "read", "awf.intent.data_sensitivity": "private",
		"awf.intent.reason": reason, "awf.intent.decision": "allow",
	} {
		if span[attribute.Key(k)].AsString() != v {
			t.Errorf("span %s = %q", k, span[attribute.Key(k)].AsString())
		}
	}
	line := h.logs.AllUntimed()[0].ContextMap()
	if line["operation_type"] != "read" || line["data_sensitivity"] != "private" || line["reason"] != reason || line["variant"] != "read" {
		t.Errorf("log line = %v", line)
	}
}

func TestRefusalsAndWarningsAreLoggedSpannedRecorded(t *testing.T) {
	h := newExposureHarness(t, split())
	ctx := context.Background()
	huge := strings.Repeat("x", 10_000)
	h.e.CallTool(ctx, "call_tool_read", splitArgs(t, map[string]any{"name": "destr", "intent_reason": "cleanup"}))
	h.e.CallTool(ctx, "call_tool_write", splitArgs(t, map[string]any{"name": "ro"}))
	h.e.CallTool(ctx, "call_tool_write", splitArgs(t, map[string]any{"name": "none", "args": map[string]any{}, "args_json": "{}"}))
	h.e.CallTool(ctx, "call_tool_write", splitArgs(t, map[string]any{"name": "none", "intent_reason": huge}))

	recs, spans, logs := h.sink.all(), h.spans.Ended(), h.logs.AllUntimed()
	if len(recs) != 4 || len(spans) != 4 || len(logs) != 4 {
		t.Fatalf("records %d, spans %d, log lines %d; want 4 each", len(recs), len(spans), len(logs))
	}
	tests := []struct {
		outcome  activity.Outcome
		decision string
		code     string
		warning  string
		level    string
	}{
		{activity.OutcomeRefused, "refuse", fault.UserIntentServerMismatch, "", "warn"},
		{activity.OutcomeSuccess, "warn", fault.UserIntentOverlyCautious, "Tool 'ro' is marked read-only by server, call_tool_read is enough", "warn"},
		{activity.OutcomeRefused, "refuse", fault.UserIntentArgsConflict, "", "warn"},
		{activity.OutcomeRefused, "refuse", fault.UserIntentReasonTooLong, "", "warn"},
	}
	for i, tt := range tests {
		rec, sp, line := recs[i], attrs(spans[i]), logs[i]
		if rec.Outcome != tt.outcome || rec.Intent.Decision != tt.decision || rec.Intent.Warning != tt.warning {
			t.Errorf("call %d record = %+v", i, rec)
		}
		if sp["awf.intent.decision"].AsString() != tt.decision || sp["awf.intent.code"].AsString() != tt.code ||
			sp["awf.intent.warning"].AsString() != tt.warning || sp["awf.tool.outcome"].AsString() != string(tt.outcome) {
			t.Errorf("call %d span = %v", i, sp)
		}
		f := line.ContextMap()
		if line.Level.String() != tt.level || f["decision"] != tt.decision || f["code"] != tt.code || f["outcome"] != string(tt.outcome) {
			t.Errorf("call %d log = %s %v", i, line.Level, f)
		}
		if tt.warning != "" && f["warning"] != tt.warning {
			t.Errorf("call %d log warning = %v", i, f["warning"])
		}
	}
	if recs[0].Intent.Reason != "cleanup" || recs[0].Tool != "destr" || recs[2].Tool != "none" {
		t.Errorf("refusals lost the tool or the declared intent: %+v / %+v", recs[0], recs[2])
	}
	if r := recs[3].Intent.Reason; len(r) >= len(huge) || !strings.Contains(r, "truncated") {
		t.Errorf("oversized reason recorded whole (%d bytes)", len(r))
	}
	if r := attrs(spans[3])["awf.intent.reason"].AsString(); len(r) >= len(huge) {
		t.Errorf("oversized reason on the span whole (%d bytes)", len(r))
	}
}

func TestSplitListTools(t *testing.T) {
	tests := []struct {
		name  string
		allow []tool.Variant
		want  []string
	}{
		{"default", nil, []string{"retrieve_tools", "call_tool_read", "call_tool_write", "call_tool_destructive"}},
		{"allow read", []tool.Variant{tool.VariantRead}, []string{"retrieve_tools", "call_tool_read"}},
		{"allow destructive write", []tool.Variant{tool.VariantDestructive, tool.VariantWrite}, []string{"retrieve_tools", "call_tool_write", "call_tool_destructive"}},
	}
	for _, tt := range tests {
		s := split()
		s.Allow = tt.allow
		e := NewExposure(newTestRouter(t, Options{}, annotated()), s)
		var names []string
		for _, d := range e.ListTools() {
			names = append(names, d.Name)
			var schema map[string]any
			if err := json.Unmarshal(d.InputSchema, &schema); err != nil || schema["type"] != "object" {
				t.Errorf("%s: schema %s", d.Name, d.InputSchema)
			}
		}
		if !slices.Equal(names, tt.want) {
			t.Errorf("%s: tools = %v, want %v", tt.name, names, tt.want)
		}
	}

	e := NewExposure(newTestRouter(t, Options{}, annotated()), split())
	defs := e.ListTools()
	hints := map[string][2]bool{ // readOnly, destructive
		"retrieve_tools": {true, false}, "call_tool_read": {true, false}, "call_tool_write": {false, false}, "call_tool_destructive": {false, true},
	}
	for _, d := range defs {
		a := d.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || *a.ReadOnlyHint != hints[d.Name][0] || *a.DestructiveHint != hints[d.Name][1] {
			t.Errorf("%s annotations = %+v", d.Name, a)
		}
		if tool.CallWith(a) != map[string]tool.Variant{"retrieve_tools": "read", "call_tool_read": "read", "call_tool_write": "write", "call_tool_destructive": "destructive"}[d.Name] {
			t.Errorf("%s is not annotated as its own variant", d.Name)
		}
	}
	for _, part := range []string{"Execute a read-only tool discovered via retrieve_tools.", "Will be rejected if server marks tool as destructive"} {
		if !strings.Contains(defs[1].Description, part) {
			t.Errorf("call_tool_read description lacks %q: %s", part, defs[1].Description)
		}
	}
	if !strings.Contains(defs[3].Description, "Most permissive - allowed regardless of server annotations.") {
		t.Errorf("call_tool_destructive description: %s", defs[3].Description)
	}
	if !strings.Contains(defs[0].Description, "recommended call_with variant") {
		t.Errorf("retrieve_tools description: %s", defs[0].Description)
	}

	req := split()
	req.RequireDeclaration = true
	var schema struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Required []string `json:"required"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(NewExposure(e.r, req).ListTools()[1].InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(schema.Required, []string{"name", "intent"}) || !slices.Equal(schema.Properties["intent"].Required, []string{"operation_type"}) {
		t.Errorf("require_declaration schema = %+v", schema)
	}
	for _, p := range splitParams {
		if _, ok := schema.Properties[p]; !ok {
			t.Errorf("schema lacks parameter %s", p)
		}
	}
}

func TestSplitUnknownNames(t *testing.T) {
	h := newExposureHarness(t, split())
	for _, name := range []string{"call_tool", "ro", "Nope"} {
		res := h.e.CallTool(context.Background(), name, json.RawMessage(`{"name":"ro"}`))
		want := "Tool '" + name + "' not found. Use call_tool_read, call_tool_write, or call_tool_destructive with matching intent.operation_type. See retrieve_tools for annotations and recommendations."
		h.check(t, res, refused(fault.UserIntentToolNotFound, want), "")
		if rec := h.sink.all()[len(h.sink.all())-1]; rec.Tool != name {
			t.Errorf("refusal recorded under %q, want %q", rec.Tool, name)
		}
	}
	if h.p.calls.Load() != 0 {
		t.Error("a tool was dispatched")
	}

	s := split()
	s.Allow = []tool.Variant{tool.VariantRead}
	h = newExposureHarness(t, s)
	res := h.e.CallTool(context.Background(), "call_tool", nil)
	h.check(t, res, refused(fault.UserIntentToolNotFound,
		"Tool 'call_tool' not found. Use call_tool_read with matching intent.operation_type. See retrieve_tools for annotations and recommendations."), "")
	res = h.e.CallTool(context.Background(), "call_tool_destructive", json.RawMessage(`{"name":"destr","intent_reason":"wipe"}`))
	h.check(t, res, refused(fault.UserIntentNotAllowed,
		"call_tool_destructive is not allowed in this step: mcp_proxy.intent.allow lists read; use call_tool_read instead, or ask the workflow author to add destructive to mcp_proxy.intent.allow"),
		tool.VariantDestructive)
	if rec := h.sink.all()[1]; rec.Tool != "destr" || rec.Intent.Reason != "wipe" {
		t.Errorf("closed-door refusal record = %+v", rec)
	}
	// An unknown tool behind a split variant gets the router's not-found, listing only callable tools.
	res = h.e.CallTool(context.Background(), "call_tool_read", json.RawMessage(`{"name":"RO"}`))
	if res.JoinedText() != "tool RO not found (did you mean ro?); available tools: ro" {
		t.Errorf("inner not found = %q", res.JoinedText())
	}
}

func TestDirectExposure(t *testing.T) {
	ctx := context.Background()
	h := newExposureHarness(t, DefaultIntentSettings())
	if got := names(h.e.ListTools()); !slices.Equal(got, []string{"ro", "destr", "none", "both", "writer"}) {
		t.Errorf("direct list = %v", got)
	}
	for _, n := range anyKinds {
		if res := h.e.CallTool(ctx, n, nil); res.IsError {
			t.Errorf("%s refused in direct mode: %q", n, res.JoinedText())
		}
	}
	want := map[string]tool.Variant{"ro": "read", "destr": "destructive", "none": "write", "both": "destructive", "writer": "write"}
	for _, rec := range h.sink.all() {
		if rec.Intent.Variant != want[rec.Tool] || rec.Intent.OperationType != string(want[rec.Tool]) || rec.Intent.Decision != DecisionAllow {
			t.Errorf("direct record %s intent = %+v", rec.Tool, rec.Intent)
		}
	}
	if res := h.e.CallTool(ctx, "call_tool_read", nil); !strings.HasPrefix(res.JoinedText(), "tool call_tool_read not found") {
		t.Errorf("split tool callable in direct mode: %q", res.JoinedText())
	}

	s := DefaultIntentSettings()
	s.Allow = []tool.Variant{tool.VariantRead}
	h = newExposureHarness(t, s)
	if got := names(h.e.ListTools()); !slices.Equal(got, []string{"ro"}) {
		t.Errorf("allow [read] direct list = %v, want only the read-only tool", got)
	}
	res := h.e.CallTool(ctx, "destr", nil)
	h.check(t, res, refused(fault.UserIntentNotAllowed,
		"Tool 'destr' is not allowed in this step: it is a destructive tool (call_tool_destructive) and mcp_proxy.intent.allow lists read; pick another tool (retrieve_tools and tools/list show only the allowed ones)"),
		tool.VariantDestructive)
	res = h.e.CallTool(ctx, "ro", nil)
	h.check(t, res, allowed, tool.VariantRead)
	if res := h.e.CallTool(ctx, "writr", nil); res.JoinedText() != "tool writr not found; available tools: ro" {
		t.Errorf("not found lists hidden tools: %q", res.JoinedText())
	}
	if h.p.calls.Load() != 1 {
		t.Errorf("provider calls = %d, want 1", h.p.calls.Load())
	}
}

func TestExposureCallLikeTheCLI(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []IntentSettings{DefaultIntentSettings(), split()} {
		h := newExposureHarness(t, mode)
		res := h.e.Call(ctx, tool.VariantRead, "destr", json.RawMessage(`{}`), tool.Intent{Reason: "look"})
		h.check(t, res, refused(fault.UserIntentServerMismatch, destrMsg), tool.VariantRead)
		res = h.e.Call(ctx, tool.VariantDestructive, "destr", json.RawMessage(`{}`), tool.Intent{Reason: "run it", DataSensitivity: "internal"})
		h.check(t, res, allowed, tool.VariantDestructive)
		rec := h.sink.all()[1]
		if rec.Intent.OperationType != "destructive" || rec.Intent.Reason != "run it" || rec.Intent.DataSensitivity != "internal" {
			t.Errorf("CLI record intent = %+v", rec.Intent)
		}
		res = h.e.Call(ctx, tool.VariantRead, "ro", nil, tool.Intent{DataSensitivity: "secret"})
		h.check(t, res, refused(fault.UserIntentInvalidSensitivity, "Invalid intent.data_sensitivity 'secret': must be public, internal, private, or unknown"), tool.VariantRead)
		res = h.e.Call(ctx, tool.VariantRead, "ro", nil, tool.Intent{OperationType: "write"})
		h.check(t, res, refused(fault.UserIntentMismatch, "Intent mismatch: tool is call_tool_read but intent declares write"), tool.VariantRead)
		res = h.e.Call(ctx, "delete", "ro", nil, tool.Intent{})
		h.check(t, res, refused(fault.UserIntentInvalidVariant, "unknown variant 'delete': must be read, write, or destructive"), "delete")
	}
	// require_declaration is met by the command itself.
	req := split()
	req.RequireDeclaration = true
	h := newExposureHarness(t, req)
	h.check(t, h.e.Call(ctx, tool.VariantRead, "ro", nil, tool.Intent{}), allowed, tool.VariantRead)
}

func TestAnnotationsAreReadAtCallTime(t *testing.T) {
	ctx := context.Background()
	h := newExposureHarness(t, split())
	// Discovery: "none" has no hints, so call_with is call_tool_write.
	entries := retrieveEntries(t, h.e.CallTool(ctx, RetrieveToolsName, json.RawMessage(`{"query":"none"}`)))
	if len(entries) == 0 || entries[0].Name != "none" || entries[0].CallWith != "call_tool_write" {
		t.Fatalf("discovery = %+v", entries)
	}
	// The server changes its mind: "none" is now destructive.
	h.p.defs[2].Annotations = tool.Annotations{DestructiveHint: tool.Bool(true)}
	if err := h.r.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	res := h.e.CallTool(ctx, "call_tool_write", json.RawMessage(`{"name":"none"}`))
	h.check(t, res, refused(fault.UserIntentServerMismatch, "Tool 'none' is marked destructive by server, use call_tool_destructive"), tool.VariantWrite)
	if entries := retrieveEntries(t, h.e.CallTool(ctx, RetrieveToolsName, json.RawMessage(`{"query":"none"}`))); entries[0].CallWith != "call_tool_destructive" {
		t.Errorf("retrieve_tools after refresh = %+v", entries[0])
	}

	// Direct mode with allow [read, write]: the tool disappears from the list and is refused.
	s := DefaultIntentSettings()
	s.Allow = []tool.Variant{tool.VariantRead, tool.VariantWrite}
	d := NewExposure(h.r, s)
	if slices.Contains(names(d.ListTools()), "none") {
		t.Error("a tool that became destructive is still listed under allow [read, write]")
	}
	if res := d.CallTool(ctx, "none", nil); !strings.Contains(res.JoinedText(), "is not allowed in this step") {
		t.Errorf("direct call after refresh = %q", res.JoinedText())
	}

	// A refresh that would break the name space keeps the current one.
	h.p.defs = append(h.p.defs, h.p.defs[0])
	if err := h.r.Refresh(ctx); err == nil || !strings.Contains(err.Error(), fault.UserMCPProxyNameCollision) {
		t.Fatalf("colliding refresh err = %v", err)
	}
	if n := len(h.r.ListTools()); n != 5 {
		t.Errorf("router has %d tools after a failed refresh, want 5", n)
	}
	_ = h.r.Close()
	if err := h.r.Refresh(ctx); err == nil {
		t.Error("refresh after close succeeded")
	}
}

func names(defs []tool.Definition) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}

func BenchmarkExposureCall(b *testing.B) {
	ctx := context.Background()
	p := &fakeProvider{source: tool.BuiltinSource, defs: []tool.Definition{def("Read", tool.BuiltinSource, readSchema)}}
	p.defs[0].Annotations = tool.Annotations{ReadOnlyHint: tool.Bool(true)}
	r, err := NewRouter(ctx, Options{Activity: discardSink{}}, p)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	cases := map[string]struct {
		s    IntentSettings
		name string
		args json.RawMessage
	}{
		"direct": {DefaultIntentSettings(), "Read", json.RawMessage(`{"file_path":"/tmp/x","offset":10,"limit":100}`)},
		"split": {split(), "call_tool_read", json.RawMessage(
			`{"name":"Read","args_json":"{\"file_path\":\"/tmp/x\",\"offset\":10,\"limit\":100}","intent_data_sensitivity":"internal","intent_reason":"bench"}`)},
	}
	for name, c := range cases {
		e := NewExposure(r, c.s)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := e.CallTool(ctx, c.name, c.args); res.IsError {
					b.Fatal(res.JoinedText())
				}
			}
		})
	}
	b.Run("router_only", func(b *testing.B) {
		args := cases["direct"].args
		b.ReportAllocs()
		for b.Loop() {
			if res := r.CallTool(ctx, "Read", args); res.IsError {
				b.Fatal(res.JoinedText())
			}
		}
	})
}
