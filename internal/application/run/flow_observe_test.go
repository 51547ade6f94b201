package run

import (
	"context"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/expr"
)

// stepAgent records the step label of each call; it is safe for parallel branches.
type stepAgent struct {
	mu    sync.Mutex
	steps []string
}

func (a *stepAgent) Name() string { return "claude" }
func (a *stepAgent) Run(_ context.Context, req ports.AgentRequest) (ports.AgentResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.steps = append(a.steps, req.Step)
	return ports.AgentResult{Output: "reviewed " + req.Prompt}, nil
}

// TestFlowObservability checks that an agent step in a loop is a real step: its own span, a
// child of the loop's, with the iteration; log lines with the iteration; and a step label that
// tells iterations apart for the proxy and the activity records.
func TestFlowObservability(t *testing.T) {
	wf := parseFlow(t, `name: t
states:
  initial: each
  each:
    type: for_each
    items: [a.go, b.go]
    body: [review]
    on_complete: checks
  review: {type: agent, provider: claude, prompt: 'review {{.loop.Item}}'}
  checks:
    type: parallel
    parallel: [lint]
    on_success: done
  lint: {type: agent, provider: claude, prompt: lint}
  done: {type: terminal}
`)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	core, logs := observer.New(zapcore.DebugLevel)
	agent := &stepAgent{}
	r := newRun(t, Options{Agents: map[string]ports.AgentProvider{"claude": agent}, Expressions: expr.Compiler{}, Tracer: tp.Tracer("t"), Logger: zap.New(core), RunID: "r1"})
	res, err := r.Run(context.Background(), wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := outputs(res, "review"); len(got) != 2 || got[1] != "reviewed review b.go" {
		t.Errorf("review outputs %q", got)
	}
	if len(agent.steps) != 3 || agent.steps[0] != "review[0]" || agent.steps[1] != "review[1]" || agent.steps[2] != "lint" {
		t.Errorf("agent step labels %v", agent.steps)
	}
	spans := map[string][]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		spans[s.Name()] = append(spans[s.Name()], s)
	}
	loop := spans["step each"]
	if len(loop) != 1 || len(spans["step review"]) != 2 {
		t.Fatalf("spans %v", spans)
	}
	for i, s := range spans["step review"] {
		a := spanAttrs(s)
		if s.Parent().SpanID() != loop[0].SpanContext().SpanID() || a["awf.loop.index"] != attribute.IntValue(i) || a["awf.loop.state"] != attribute.StringValue("each") {
			t.Errorf("review span %d: parent %v attrs %v", i, s.Parent().SpanID(), a)
		}
	}
	if a := spanAttrs(spans["step lint"][0]); a["awf.parallel.state"] != attribute.StringValue("checks") {
		t.Errorf("lint span attrs %v", a)
	}
	var indices []int64
	for _, e := range logs.FilterMessage("step succeeded").All() {
		if e.ContextMap()["step"] == "review" {
			indices = append(indices, e.ContextMap()["loop_index"].(int64))
		}
	}
	if len(indices) != 2 || indices[0] != 0 || indices[1] != 1 {
		t.Errorf("review log lines carry loop indices %v", indices)
	}
}
