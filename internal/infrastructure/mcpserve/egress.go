package mcpserve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/egressproxy"
)

// egressRecorder turns each connection attempt of the step's egress proxy into an activity
// record of kind network and a span, child of the Bash call's span that ctx carries
// (docs/decisions/0028-egress-proxy.md). A failing sink is logged, as the router does.
type egressRecorder struct {
	runID, step string
	sink        ports.ActivitySink
	logger      *zap.Logger
	tracer      trace.Tracer
}

func newEgressRecorder(runID, step string, sink ports.ActivitySink, logger *zap.Logger) *egressRecorder {
	return &egressRecorder{runID: runID, step: step, sink: sink, logger: logger, tracer: otel.Tracer("awf/mcp-serve")}
}

// record is the proxy's Record callback.
func (e *egressRecorder) record(ctx context.Context, r egressproxy.Record) {
	rec := networkRecord(r)
	rec.RunID, rec.Step = e.runID, e.step
	_, span := e.tracer.Start(ctx, "awf.network "+r.Protocol, trace.WithTimestamp(r.Start), trace.WithSpanKind(trace.SpanKindClient))
	if span.IsRecording() {
		span.SetAttributes(attribute.String("server.address", r.Host), attribute.Int("server.port", r.Port),
			attribute.String("network.peer.address", r.Addr), attribute.String("awf.network.protocol", r.Protocol),
			attribute.String("awf.network.decision", rec.Network.Decision), attribute.String("awf.network.rule", r.Rule),
			attribute.Int64("awf.network.bytes_out", r.BytesOut), attribute.Int64("awf.network.bytes_in", r.BytesIn))
		if r.Method != "" {
			span.SetAttributes(attribute.String("http.request.method", r.Method), attribute.String("url.path", r.Path))
		}
		if rec.Outcome != activity.OutcomeSuccess {
			span.SetStatus(codes.Error, rec.Error)
		}
	}
	if sc := span.SpanContext(); sc.HasTraceID() {
		rec.TraceID = sc.TraceID().String()
	}
	span.End(trace.WithTimestamp(r.Start.Add(r.Duration)))
	if e.sink == nil {
		return
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := e.sink.Append(actx, rec); err != nil && e.logger != nil {
		e.logger.Warn("network activity record not written", zap.String("host", r.Host), zap.Error(err))
	}
}

// networkRecord is the activity record of one attempt: refused when the rules denied it, an
// error when an allowed connection failed.
func networkRecord(r egressproxy.Record) activity.Record {
	rec := activity.Record{
		ID: newID(), Time: r.Start.UTC(), Tool: "Bash", Kind: activity.KindNetwork,
		DurationMS: float64(r.Duration.Microseconds()) / 1000, Outcome: activity.OutcomeSuccess,
		Network: &activity.Connection{Host: r.Host, Port: r.Port, Addr: r.Addr, Protocol: r.Protocol, Method: r.Method,
			Path: r.Path, BytesOut: r.BytesOut, BytesIn: r.BytesIn, Decision: "allow", Rule: r.Rule},
	}
	switch {
	case !r.Allowed:
		rec.Outcome, rec.Network.Decision, rec.Error = activity.OutcomeRefused, "deny", "refused: "+r.Rule
	case r.Error != "":
		rec.Outcome, rec.Error = activity.OutcomeError, r.Error
	}
	return rec
}

// newID is 128 random bits in hex, as the router's record ids.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
