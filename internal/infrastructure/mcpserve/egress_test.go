package mcpserve

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/egressproxy"
)

type memSink struct {
	mu   sync.Mutex
	recs []activity.Record
}

func (m *memSink) Append(_ context.Context, r activity.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs = append(m.recs, r)
	return nil
}

// Each connection is one record of kind network and one span, child of the Bash call's span.
func TestEgressRecorder(t *testing.T) {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	sink := &memSink{}
	rec := newEgressRecorder("run1", "fetch", sink, nil)
	ctx, parent := tp.Tracer("t").Start(context.Background(), "Bash")
	start := time.Now()
	rec.record(ctx, egressproxy.Record{Start: start, Duration: 3 * time.Millisecond, Protocol: "http", Host: "127.0.0.1", Port: 80,
		Addr: "127.0.0.1", Method: "GET", Path: "/a", BytesOut: 70, BytesIn: 300, Allowed: true, Rule: "allow 127.0.0.1:80"})
	rec.record(ctx, egressproxy.Record{Start: start, Protocol: "socks", Host: "evil.test", Port: 443, Rule: "not in the allow list"})
	rec.record(ctx, egressproxy.Record{Start: start, Protocol: "connect", Host: "down.test", Port: 443, Allowed: true, Rule: "allow down.test", Error: "connection refused"})
	parent.End()

	if len(sink.recs) != 3 {
		t.Fatalf("records %+v", sink.recs)
	}
	ok, no, failed := sink.recs[0], sink.recs[1], sink.recs[2]
	if ok.Kind != activity.KindNetwork || ok.RunID != "run1" || ok.Step != "fetch" || ok.Outcome != activity.OutcomeSuccess || ok.DurationMS != 3 ||
		ok.Network.Method != "GET" || ok.Network.BytesIn != 300 || ok.Network.Decision != "allow" || ok.TraceID != parent.SpanContext().TraceID().String() {
		t.Errorf("allowed: %+v %+v", ok, ok.Network)
	}
	if no.Outcome != activity.OutcomeRefused || no.Network.Decision != "deny" || no.Error != "refused: not in the allow list" {
		t.Errorf("denied: %+v %+v", no, no.Network)
	}
	if failed.Outcome != activity.OutcomeError || failed.Network.Decision != "allow" || failed.Error != "connection refused" {
		t.Errorf("failed: %+v %+v", failed, failed.Network)
	}
	spans := sr.Ended()
	var children int
	for _, s := range spans {
		if s.Name() == "Bash" {
			continue
		}
		children++
		if s.Parent().SpanID() != parent.SpanContext().SpanID() || !s.StartTime().Equal(start) {
			t.Errorf("span %s: parent %v, start %v", s.Name(), s.Parent().SpanID(), s.StartTime())
		}
	}
	if children != 3 {
		t.Errorf("%d connection spans, want 3", children)
	}
}

// The list travels through the config file and reaches the Bash sandbox with the network off.
func TestSandboxOptionsEgress(t *testing.T) {
	spec := toolset.Spec{Builtins: true, Sandbox: toolset.Sandbox{Mode: "auto", Network: true, Egress: &toolset.Egress{Allow: []string{"a.example"}, Deny: []string{"b.a.example"}}}}
	data, err := Encode(spec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	o := sandboxOptions(back, newEgressRecorder("", "", nil, nil))
	if o.Settings.Network || o.Settings.Egress == nil || o.Settings.Egress.Allow[0] != "a.example" || o.Settings.Egress.Deny[0] != "b.a.example" || o.EgressRecord == nil {
		t.Fatalf("options %+v egress %+v (config %s)", o.Settings, o.Settings.Egress, data)
	}
	if o := sandboxOptions(toolset.Spec{Sandbox: toolset.Sandbox{Mode: "auto", Network: true}}, nil); o.Settings.Egress != nil || !o.Settings.Network {
		t.Fatalf("no list: %+v", o.Settings)
	}
}
