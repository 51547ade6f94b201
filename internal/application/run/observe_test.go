package run

import (
	"context"
	"reflect"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// TestSpansAndLogs checks the run's observability: one span per run with one child per step,
// statuses on both, and the log lines operators grep for.
func TestSpansAndLogs(t *testing.T) {
	tests := []struct {
		name      string
		wf        *workflow.Workflow
		results   map[string]ports.CommandResult
		wantSpans []string // name:status code:awf.step.status or awf.run.status
		wantLogs  []string // level:message:status
	}{
		{
			name:      "a success and a failure followed to a failure terminal",
			wf:        flow(cmdState("a", "ok", "b", "bad"), cmdState("b", "no", "done", "bad")),
			results:   map[string]ports.CommandResult{"ok": {}, "no": {ExitCode: 1, Stderr: "why\nmore"}},
			wantSpans: []string{"step a:Unset:success", "step b:Error:failure", "workflow.run t:Error:failure"},
			wantLogs:  []string{"info:run started:", "info:step succeeded:", "warn:step failed:", "warn:run ended:failure"},
		},
		{
			name:      "a step that stops the run",
			wf:        flow(cmdState("a", "{{.nope}}", "done", "bad")),
			wantSpans: []string{"step a:Error:", "workflow.run t:Error:error"},
			wantLogs:  []string{"info:run started:", "warn:step stopped the run:", "warn:run ended:error"},
		},
		{
			name:      "a success",
			wf:        flow(cmdState("a", "ok", "done", "bad")),
			results:   map[string]ports.CommandResult{"ok": {}},
			wantSpans: []string{"step a:Unset:success", "workflow.run t:Unset:success"},
			wantLogs:  []string{"info:run started:", "info:step succeeded:", "info:run ended:success"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
			core, logs := observer.New(zapcore.DebugLevel)
			r := newRun(t, Options{Commands: &fakeShell{t: t, results: tc.results}, RunID: "r7", Tracer: tp.Tracer("t"), Logger: zap.New(core)})
			_, _ = r.Run(context.Background(), tc.wf, one)

			spans := rec.Ended()
			var got []string
			var runSpan sdktrace.ReadOnlySpan
			for _, s := range spans {
				a := spanAttrs(s)
				status := a["awf.step.status"].AsString() + a["awf.run.status"].AsString()
				got = append(got, s.Name()+":"+s.Status().Code.String()+":"+status)
				if s.Name() == "workflow.run t" {
					runSpan = s
				}
			}
			if !reflect.DeepEqual(got, tc.wantSpans) {
				t.Errorf("spans %v\nwant  %v", got, tc.wantSpans)
			}
			for _, s := range spans {
				a := spanAttrs(s)
				if a["awf.run.id"].AsString() != "r7" {
					t.Errorf("span %s lacks the run id: %v", s.Name(), a)
				}
				if s == runSpan {
					if a["awf.workflow"].AsString() != "t" {
						t.Errorf("run span attributes %v", a)
					}
					continue
				}
				if s.Parent().SpanID() != runSpan.SpanContext().SpanID() || a["awf.step"].AsString() != s.Name()[len("step "):] || a["awf.step.type"].AsString() != "command" {
					t.Errorf("step span %s: parent %v, attributes %v", s.Name(), s.Parent().SpanID(), a)
				}
				if s.Status().Code == codes.Error && s.Status().Description == "" {
					t.Errorf("step span %s fails without a description", s.Name())
				}
				if s.Name() == "step b" && s.Status().Description != "exit code 1: why" {
					t.Errorf("a failed step's span says %q, want the error's first line", s.Status().Description)
				}
			}
			if runSpan.Status().Code == codes.Error && len(runSpan.Events()) == 0 {
				t.Error("a failed run's span records its error")
			}

			var lines []string
			for _, e := range logs.All() {
				f := e.ContextMap()
				if f["run_id"] != "r7" || f["workflow"] != "t" {
					t.Errorf("log %q lacks run_id/workflow: %v", e.Message, f)
				}
				if e.Message != "run started" && e.Message != "run ended" && (f["step"] != "a" && f["step"] != "b" || f["type"] != "command") {
					t.Errorf("step log %q lacks step/type: %v", e.Message, f)
				}
				status, _ := f["status"].(string)
				lines = append(lines, e.Level.String()+":"+e.Message+":"+status)
			}
			if !reflect.DeepEqual(lines, tc.wantLogs) {
				t.Errorf("logs %v\nwant %v", lines, tc.wantLogs)
			}
		})
	}
}

func spanAttrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}
