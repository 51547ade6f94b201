package activitylog

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// checkSameLine compares appendLine with the reflective encoding it replaces.
func checkSameLine(t *testing.T, r activity.Record) {
	t.Helper()
	want, wantErr := marshalLine(r)
	got, ok := appendLine([]byte("prefix"), r)
	if !ok {
		if string(got) != "prefix" {
			t.Fatalf("a refused record left %q", got)
		}
		return // Encode falls back to marshalLine itself
	}
	if wantErr != nil {
		t.Fatalf("appendLine wrote %s where json.Marshal fails: %v", got, wantErr)
	}
	if string(got) != "prefix"+string(want) {
		t.Fatalf("appendLine =\n%s\njson.Marshal =\n%s", got[len("prefix"):], want)
	}
	if enc, err := Encode(r); err != nil || string(enc) != string(want) {
		t.Fatalf("Encode = %s %v", enc, err)
	}
}

func TestAppendLineMatchesMarshal(t *testing.T) {
	full := fullRecord()
	full.Sandbox = &tool.Confinement{Enforced: true, ABI: 4, Policy: "write", Network: true, Reason: "<why>"}
	full.Content = []tool.ContentSummary{{Type: "image", MIMEType: "image/png", Bytes: 5}, {Type: "resource", URI: "file:///x&y", Bytes: 0}}
	full.Turn = 3
	full.Code = "USER.X"
	full.ToolVariant = tool.VariantRead
	odd := "<a>&\"\\\n\r\t\b\f\x00\x1f\x7f é \u2028\u2029 \xff \U0001F600"
	recs := []activity.Record{
		full, {}, {ID: "x", Tool: "Read", Outcome: activity.OutcomeSuccess},
		{ID: odd, Tool: odd, Error: odd, RunID: odd, Step: odd, Source: tool.Source(odd), Outcome: activity.Outcome(odd),
			Intent: tool.Intent{Reason: odd, Warning: odd}, Time: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)},
		{Arguments: map[string]any{}, Intent: tool.Intent{Decision: "allow"}},
		{Arguments: map[string]any{"b": 1.0, "a": []any{nil, true, false, "x", 1e21, 1e-7, math.Copysign(0, -1), 123456789.125, 1e20, 5e-324, math.MaxFloat64,
			map[string]any{"z": []any{}, "y": map[string]any{}, odd: odd}}, "m": map[string]any(nil), "s": []any(nil), "": ""}},
		{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), DurationMS: 0.1},
		{Time: time.Date(2026, 1, 2, 3, 4, 5, 120, time.UTC), DurationMS: 1e-9},
		{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600))}, // not UTC: declined
		{Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},                 // json.Marshal fails: declined
		{DurationMS: math.NaN()}, {DurationMS: math.Inf(-1)},
		{Arguments: map[string]any{"x": math.Inf(1)}}, {Arguments: map[string]any{"x": 3}}, {Arguments: map[string]any{"x": json.Number("3")}},
		{Sandbox: &tool.Confinement{}}, {Content: []tool.ContentSummary{}},
	}
	for _, r := range recs {
		checkSameLine(t, r)
	}
}

func FuzzAppendLine(f *testing.F) {
	f.Add("id", "Read", `{"file_path":"/a","n":[1,2.5,-3e-9,true,null,{"k":"<v>"}]}`, 1.25, int64(1790000000123456789), true, 2)
	f.Add("\xff", "\u2028", `{"\u00e9":"\ud800"}`, 1e21, int64(-62135596800000000000/1e9), false, 0)
	f.Fuzz(func(t *testing.T, id, text, args string, dur float64, nanos int64, sandbox bool, turn int) {
		var m map[string]any
		_ = json.Unmarshal([]byte(args), &m)
		r := activity.Record{ID: id, Time: time.Unix(0, nanos).UTC(), RunID: text, Step: id, Tool: text, Source: tool.Source(id),
			Arguments: m, DurationMS: dur, Outcome: activity.Outcome(text), Error: text + id, Code: id,
			Intent:      tool.Intent{Variant: tool.Variant(id), OperationType: text, DataSensitivity: id, Reason: text, Decision: id, Warning: text},
			ToolVariant: tool.Variant(text), TraceID: id, Turn: turn,
			Content: []tool.ContentSummary{{Type: text, MIMEType: id, URI: text, Bytes: turn}}}
		if sandbox {
			r.Sandbox = &tool.Confinement{Enforced: turn%2 == 0, ABI: turn, Policy: text, Network: sandbox, Reason: id}
		}
		checkSameLine(t, r)
	})
}

// BenchmarkEncode is one typical record: the Read of a step.
func BenchmarkEncode(b *testing.B) {
	r := activity.Record{ID: strings.Repeat("a1", 16), Time: time.Now().UTC(), RunID: "20261126-231800-abcdef", Step: "agent", Tool: "Read",
		Source: tool.BuiltinSource, Arguments: map[string]any{"file_path": "/tmp/awf-bench/root/file4k.txt"}, DurationMS: 0.532,
		Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: tool.VariantRead, OperationType: "read", Decision: "allow"},
		ToolVariant: tool.VariantRead}
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 1024)
		for b.Loop() {
			buf, _ = appendLine(buf[:0], r)
		}
	})
	b.Run("marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = marshalLine(r)
		}
	})
}
