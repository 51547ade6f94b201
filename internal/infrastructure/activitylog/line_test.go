package activitylog

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// fullRecord sets every field, so the pinned line below covers the whole format.
func fullRecord() activity.Record {
	return activity.Record{
		ID:         "01JDX7Q3ZB5V2K9M4N8P6R0S1T",
		Time:       time.Date(2026, 11, 23, 17, 4, 5, 123456789, time.UTC),
		RunID:      "run-42",
		Step:       "edit",
		Tool:       "Bash",
		Source:     tool.BuiltinSource,
		Arguments:  map[string]any{"command": "rm -rf build", "timeout": float64(30)},
		DurationMS: 12.5,
		Outcome:    activity.OutcomeRefused,
		Error:      "destructive call refused",
		Intent: tool.Intent{
			Variant: tool.VariantDestructive, OperationType: "delete", DataSensitivity: "internal",
			Reason: "clean the build", Decision: "refused", Warning: "declared write",
		},
		ToolVariant: tool.VariantWrite,
		TraceID:     "4bf92f3577b34da6a3ce929d0e0e4736",
	}
}

// fullLine is the activity file's line for fullRecord, byte for byte: users' scripts and older
// awf versions read these files, so the names, order and encoding must not drift.
const fullLine = `{"id":"01JDX7Q3ZB5V2K9M4N8P6R0S1T","time":"2026-11-23T17:04:05.123456789Z","run_id":"run-42",` +
	`"step":"edit","tool":"Bash","source":"builtin","arguments":{"command":"rm -rf build","timeout":30},` +
	`"duration_ms":12.5,"outcome":"refused","error":"destructive call refused",` +
	`"intent":{"variant":"destructive","operation_type":"delete","data_sensitivity":"internal",` +
	`"reason":"clean the build","decision":"refused","warning":"declared write"},` +
	`"tool_variant":"call_tool_destructive","tool_own_variant":"call_tool_write",` +
	`"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736"}` + "\n"

func TestEncodePinsTheLine(t *testing.T) {
	tests := []struct {
		name string
		rec  activity.Record
		want string
	}{
		{"every field", fullRecord(), fullLine},
		{
			// Optional fields vanish; id, time, tool, duration_ms, outcome and intent stay.
			"minimal",
			activity.Record{ID: "x", Tool: "Read", Outcome: activity.OutcomeSuccess},
			`{"id":"x","time":"0001-01-01T00:00:00Z","tool":"Read","duration_ms":0,"outcome":"success","intent":{}}` + "\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.rec)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("Encode =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	got, err := Decode([]byte(fullLine[:len(fullLine)-1]))
	if err != nil {
		t.Fatal(err)
	}
	if want := fullRecord(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode =\n%+v\nwant\n%+v", got, want)
	}
	for _, bad := range []string{"{not json", `["an array"]`, `{"id":7}`, `{"intent":"read"}`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%s) succeeded, want an error", bad)
		}
	}
}

// TestLinesPrintAsTheFile pins what `awf activity list -o json` and `show` print: the file's
// field names, and [] (not null) for no records.
func TestLinesPrintAsTheFile(t *testing.T) {
	b, err := json.Marshal(LinesOf(nil))
	if err != nil || string(b) != "[]" {
		t.Fatalf("LinesOf(nil) = %s, %v; want []", b, err)
	}
	b, err = json.Marshal(LinesOf([]activity.Record{fullRecord(), fullRecord()}))
	if err != nil {
		t.Fatal(err)
	}
	one := fullLine[:len(fullLine)-1]
	if want := "[" + one + "," + one + "]"; string(b) != want {
		t.Fatalf("LinesOf = %s\nwant %s", b, want)
	}
}

// The summary of a result's non-text blocks survives the file, and a text-only record writes
// no content key.
func TestContentSummaryRoundTrip(t *testing.T) {
	r := activity.Record{ID: "c1", Tool: "everything_get-tiny-image", Content: []tool.ContentSummary{{Type: "image", MIMEType: "image/png", Bytes: 68}, {Type: "resource", URI: "mem://x", Bytes: 5}}}
	line, err := Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(line), `"content":[{"type":"image","mime_type":"image/png","bytes":68},{"type":"resource","uri":"mem://x","bytes":5}]`) {
		t.Errorf("line = %s", line)
	}
	back, err := Decode(line[:len(line)-1])
	if err != nil || !reflect.DeepEqual(back.Content, r.Content) {
		t.Errorf("decoded = %+v, %v", back.Content, err)
	}
	if line, _ = Encode(activity.Record{ID: "c2"}); strings.Contains(string(line), `"content"`) {
		t.Errorf("text-only line = %s", line)
	}
}

// The turn of a conversation's call survives the file; outside a conversation it is absent.
func TestTurnRoundTrip(t *testing.T) {
	r := fullRecord()
	r.Turn = 3
	b, err := Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b[:len(b)-1])
	if err != nil || got.Turn != 3 {
		t.Fatalf("turn %d, err %v, line %s", got.Turn, err, b)
	}
	if b, _ := Encode(fullRecord()); bytes.Contains(b, []byte(`"turn"`)) {
		t.Fatalf("a record outside a conversation writes a turn: %s", b)
	}
}

// BenchmarkEncode is one typical record: the Read of a step.
func BenchmarkEncode(b *testing.B) {
	r := activity.Record{ID: strings.Repeat("a1", 16), Time: time.Now().UTC(), RunID: "20261126-231800-abcdef", Step: "agent", Tool: "Read",
		Source: tool.BuiltinSource, Arguments: map[string]any{"file_path": "/tmp/awf-bench/root/file4k.txt"}, DurationMS: 0.532,
		Outcome: activity.OutcomeSuccess, Intent: tool.Intent{Variant: tool.VariantRead, OperationType: "read", Decision: "allow"},
		ToolVariant: tool.VariantRead}
	b.Run("marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = Encode(r)
		}
	})
}

// A held call's approval is written as approval: {decision, by, at} and read back; a call that
// was not held writes none.
func TestApprovalRoundTrip(t *testing.T) {
	r := fullRecord()
	r.Approval = &activity.Approval{Decision: activity.ApprovalDeny, By: activity.ApprovedByTimeout, At: time.Date(2026, 11, 28, 17, 0, 0, 0, time.UTC)}
	b, err := Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"approval":{"decision":"deny","by":"timeout","at":"2026-11-28T17:00:00Z"}`; !bytes.Contains(b, []byte(want)) {
		t.Fatalf("line %s lacks %s", b, want)
	}
	got, err := Decode(b[:len(b)-1])
	if err != nil || got.Approval == nil || *got.Approval != *r.Approval {
		t.Fatalf("approval %+v, err %v", got.Approval, err)
	}
}
