package routing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// harness is a router wired to a span recorder, an observed logger and a memory sink.
type harness struct {
	r     *Router
	spans *tracetest.SpanRecorder
	tp    *sdktrace.TracerProvider
	logs  *observer.ObservedLogs
	sink  *memSink
}

func newHarness(t *testing.T, provs ...*fakeProvider) *harness {
	t.Helper()
	h := &harness{spans: tracetest.NewSpanRecorder(), sink: &memSink{}}
	h.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(h.spans))
	core, logs := observer.New(zapcore.DebugLevel)
	h.logs = logs
	clock := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	now := func() time.Time { // each reading advances 250ms, so durations are known
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(250 * time.Millisecond)
		return clock
	}
	h.r = newTestRouter(t, Options{
		Logger: zap.New(core), Tracer: h.tp.Tracer("test"), Activity: h.sink,
		RunID: "run-1", Step: "review", Now: now,
	}, provs...)
	return h
}

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

func TestSpanIsChildOfStepSpanWithAttributes(t *testing.T) {
	notes := tool.PluginSource("notes")
	p := &fakeProvider{source: notes, defs: []tool.Definition{def("notes_add", notes, `{"type":"object"}`)},
		call: func(context.Context, string, json.RawMessage) (tool.Result, error) {
			return tool.Result{}, errors.New("boom")
		}}
	h := newHarness(t, builtins(), p)

	ctx, step := h.tp.Tracer("test").Start(context.Background(), "step review")
	h.r.CallTool(ctx, "Read", json.RawMessage(`{"file_path":"a"}`))
	h.r.CallTool(ctx, "notes_add", nil)
	step.End()

	ended := h.spans.Ended()
	if len(ended) != 3 {
		t.Fatalf("got %d spans, want 3", len(ended))
	}
	tests := []struct {
		span    sdktrace.ReadOnlySpan
		name    string
		source  string
		outcome string
		status  codes.Code
		errText string
	}{
		{ended[0], "execute_tool Read", "builtin", "success", codes.Unset, ""},
		{ended[1], "execute_tool notes_add", "plugin:notes", "error", codes.Error, "plugin:notes failed: boom"},
	}
	for _, tt := range tests {
		s := tt.span
		if s.Name() != tt.name {
			t.Errorf("span name = %q, want %q", s.Name(), tt.name)
		}
		if s.Parent().SpanID() != step.SpanContext().SpanID() || s.SpanContext().TraceID() != step.SpanContext().TraceID() {
			t.Errorf("%s: parent = %v, want the step span %v", tt.name, s.Parent().SpanID(), step.SpanContext().SpanID())
		}
		a := attrs(s)
		checks := map[attribute.Key]string{
			"awf.tool.name": strings.TrimPrefix(tt.name, "execute_tool "), "awf.tool.source": tt.source,
			"gen_ai.tool.name": strings.TrimPrefix(tt.name, "execute_tool "), "gen_ai.operation.name": "execute_tool",
			"awf.tool.outcome": tt.outcome, "awf.run.id": "run-1", "awf.step": "review",
			"awf.intent.variant": "write", "awf.intent.decision": "allow",
		}
		for k, want := range checks {
			if got := a[k].AsString(); got != want {
				t.Errorf("%s: %s = %q, want %q", tt.name, k, got, want)
			}
		}
		if d := a["awf.tool.duration_ms"].AsFloat64(); d != 250 {
			t.Errorf("%s: duration_ms = %v, want 250", tt.name, d)
		}
		if s.Status().Code != tt.status || a["error"].AsString() != tt.errText {
			t.Errorf("%s: status %v error %q, want %v %q", tt.name, s.Status().Code, a["error"].AsString(), tt.status, tt.errText)
		}
	}
}

func TestOneLogLinePerCall(t *testing.T) {
	p := builtins()
	p.call = func(_ context.Context, name string, _ json.RawMessage) (tool.Result, error) {
		if name == "Write" {
			panic("nil map")
		}
		return tool.Text("ok"), nil
	}
	h := newHarness(t, p)
	h.r.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":"a"}`))
	h.r.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":1}`))
	h.r.CallTool(context.Background(), "Write", json.RawMessage(`{"file_path":"a","content":"b"}`))

	entries := h.logs.AllUntimed()
	if len(entries) != 3 {
		t.Fatalf("got %d log lines, want 3: %+v", len(entries), entries)
	}
	tests := []struct {
		level   zapcore.Level
		outcome string
		errPart string
		stack   bool
	}{
		{zapcore.InfoLevel, "success", "", false},
		{zapcore.WarnLevel, "error", "file_path: expected string, got integer", false},
		{zapcore.ErrorLevel, "error", "awf bug", true},
	}
	for i, tt := range tests {
		e := entries[i]
		f := e.ContextMap()
		if e.Level != tt.level {
			t.Errorf("line %d level = %v, want %v", i, e.Level, tt.level)
		}
		for k, want := range map[string]any{"source": "builtin", "step": "review", "run_id": "run-1", "outcome": tt.outcome, "duration_ms": 250.0} {
			if f[k] != want {
				t.Errorf("line %d: %s = %v, want %v", i, k, f[k], want)
			}
		}
		for _, k := range []string{"tool", "variant", "decision"} {
			if f[k] == "" || f[k] == nil {
				t.Errorf("line %d: field %s missing", i, k)
			}
		}
		errText, _ := f["error"].(string)
		if (tt.errPart == "") != (errText == "") || !strings.Contains(errText, tt.errPart) {
			t.Errorf("line %d: error = %q, want it to contain %q", i, errText, tt.errPart)
		}
		if _, hasStack := f["stack"]; hasStack != tt.stack {
			t.Errorf("line %d: stack present = %v, want %v", i, hasStack, tt.stack)
		}
	}
	if s, _ := entries[2].ContextMap()["stack"].(string); !strings.Contains(s, "routing.(*Router).CallTool") {
		t.Errorf("panic stack does not show the router: %.200s", s)
	}
}

func TestActivityRecordWithTruncation(t *testing.T) {
	h := newHarness(t, builtins())
	big := strings.Repeat("é", 1000) // 2000 bytes
	args, _ := json.Marshal(map[string]any{"file_path": "notes.md", "content": big, "nested": []any{map[string]any{"x": big}}})
	ctx, step := h.tp.Tracer("test").Start(context.Background(), "step")
	h.r.CallTool(ctx, "Write", args)
	step.End()

	recs := h.sink.all()
	if len(recs) != 1 {
		t.Fatalf("got %d records, want 1", len(recs))
	}
	rec := recs[0]
	if len(rec.ID) != 32 || strings.Trim(rec.ID, "0123456789abcdef") != "" {
		t.Errorf("id = %q, want 32 hex digits", rec.ID)
	}
	want := activity.Record{
		Time: time.Date(2030, 1, 2, 3, 4, 5, 250_000_000, time.UTC), RunID: "run-1", Step: "review", Tool: "Write",
		Source: tool.BuiltinSource, DurationMS: 250, Outcome: activity.OutcomeSuccess,
		Intent: tool.Intent{Variant: tool.VariantWrite, Decision: DecisionAllow}, ToolVariant: tool.VariantWrite, TraceID: step.SpanContext().TraceID().String(),
	}
	got := rec
	got.ID, got.Arguments = "", nil
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("record =\n%+v\nwant\n%+v", got, want)
	}
	wantContent := strings.Repeat("é", 512) + "…[truncated 976 bytes]"
	if rec.Arguments["content"] != wantContent || rec.Arguments["file_path"] != "notes.md" {
		t.Errorf("content = %.60q…, file_path = %v", rec.Arguments["content"], rec.Arguments["file_path"])
	}
	nested := rec.Arguments["nested"].([]any)[0].(map[string]any)["x"]
	if nested != wantContent {
		t.Errorf("nested string not truncated: %.60q", nested)
	}
	if h.spans.Ended()[0].SpanContext().TraceID().String() != rec.TraceID {
		t.Error("record trace id differs from the span's")
	}
}

func TestFailingSinkIsLoggedNotFatal(t *testing.T) {
	h := newHarness(t, builtins())
	h.sink.fail = true
	res := h.r.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":"a"}`))
	if res.IsError {
		t.Fatalf("call failed because the sink failed: %q", res.JoinedText())
	}
	lines := h.logs.FilterMessageSnippet("activity record not written").All()
	if len(lines) != 1 || lines[0].ContextMap()["error"] != "disk full" {
		t.Fatalf("sink failure not logged: %+v", h.logs.All())
	}
}

func TestCancelledCallIsStillRecorded(t *testing.T) {
	h := newHarness(t, builtins())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h.r.CallTool(ctx, "Read", json.RawMessage(`{"file_path":"a"}`))
	if recs := h.sink.all(); len(recs) != 1 || !strings.HasPrefix(recs[0].Error, "cancelled") {
		t.Fatalf("records = %+v, want one cancelled record", recs)
	}
}

func TestConcurrentCalls(t *testing.T) {
	notes := tool.PluginSource("notes")
	p := &fakeProvider{source: notes, defs: []tool.Definition{def("echo", notes, `{"type":"object","properties":{"n":{"type":"integer"}}}`)},
		call: func(_ context.Context, _ string, args json.RawMessage) (tool.Result, error) {
			return tool.Text(string(args)), nil
		}}
	h := newHarness(t, builtins(), p)
	const workers, per = 8, 50
	var wg sync.WaitGroup
	errs := make(chan string, workers*per)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				args := fmt.Sprintf(`{"n":%d}`, w*per+i)
				name := "echo"
				if i%5 == 0 {
					name, args = "Read", `{"file_path":"x"}`
				}
				res := h.r.CallTool(context.Background(), name, json.RawMessage(args))
				if res.IsError || (name == "echo" && res.JoinedText() != args) {
					errs <- res.JoinedText()
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("bad result under concurrency: %s", e)
	}
	if n := len(h.sink.all()); n != workers*per {
		t.Errorf("records = %d, want %d", n, workers*per)
	}
	if n := len(h.spans.Ended()); n != workers*per {
		t.Errorf("spans = %d, want %d", n, workers*per)
	}
}

func BenchmarkRouterCall(b *testing.B) {
	notes := tool.PluginSource("notes")
	p := &fakeProvider{source: notes, defs: []tool.Definition{def("Read", notes, readSchema)}}
	r, err := NewRouter(context.Background(), Options{Activity: &discardSink{}}, p)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	args := json.RawMessage(`{"file_path":"/tmp/x","offset":10,"limit":100}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := r.CallTool(ctx, "Read", args); res.IsError {
			b.Fatal(res.JoinedText())
		}
	}
}

type discardSink struct{}

func (discardSink) Append(context.Context, activity.Record) error { return nil }
