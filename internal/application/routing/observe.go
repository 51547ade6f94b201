package routing

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/tool"
)

// activityTimeout bounds the write of one activity record, so a stuck sink cannot hold the
// agent's call forever. It is detached from the call's context: a cancelled call is still
// recorded.
const activityTimeout = 5 * time.Second

// finish ends the span, writes the log line and appends the activity record of one call. It is
// the only place a tool call is instrumented.
func (r *Router) finish(ctx context.Context, span trace.Span, c *call) {
	durationMS := float64(r.opts.Now().Sub(c.start).Microseconds()) / 1000
	// Secrets are masked before anything is cut, so a key the cut would split is masked whole.
	red := r.opts.Redactor
	errText := truncateString(red.String(c.errText), maxRecordedString)
	c.intent = truncateIntent(activity.RedactIntent(c.intent, red))
	c.args = red.Map(c.args)

	if span.IsRecording() { // a no-op tracer (telemetry off) pays nothing for attributes
		attrs := make([]attribute.KeyValue, 0, 12)
		attrs = append(attrs,
			attribute.Float64("awf.tool.duration_ms", durationMS),
			attribute.String("awf.tool.outcome", string(c.outcome)),
		)
		if c.source != "" {
			attrs = append(attrs, attribute.String("awf.tool.source", string(c.source)))
		}
		if c.toolVariant != "" {
			attrs = append(attrs, attribute.String("awf.tool.variant", string(c.toolVariant)))
		}
		attrs = appendIntentAttributes(attrs, c.intent, c.code)
		if sb := c.sandbox; sb != nil {
			attrs = append(attrs, attribute.Bool("awf.sandbox.enforced", sb.Enforced), attribute.Int("awf.sandbox.landlock_abi", sb.ABI),
				attribute.String("awf.sandbox.policy", sb.Policy), attribute.Bool("awf.sandbox.network", sb.Network))
		}
		span.SetAttributes(attrs...)
		if c.outcome != activity.OutcomeSuccess {
			span.SetAttributes(semconv.ErrorTypeKey.String(errorType(c)))
			if !r.opts.ConventionsOnly {
				span.SetAttributes(attribute.String("error", errText))
			}
			span.SetStatus(codes.Error, errText)
		}
	}
	var traceID string
	if sc := span.SpanContext(); sc.HasTraceID() {
		traceID = sc.TraceID().String()
	}
	span.End()

	r.log(c, durationMS, errText, traceID)
	r.record(ctx, c, durationMS, errText, traceID)
}

// maxIntentString bounds each intent string kept in a span, a log line or a record. The rule
// refuses reasons over tool.MaxReason characters, but a refused call is recorded too, with
// whatever the agent sent.
const maxIntentString = 4 * tool.MaxReason

// truncateIntent bounds every free-text field of an intent.
func truncateIntent(in tool.Intent) tool.Intent {
	in.Variant = tool.Variant(truncateString(string(in.Variant), maxToolName))
	in.OperationType = truncateString(in.OperationType, maxToolName)
	in.DataSensitivity = truncateString(in.DataSensitivity, maxToolName)
	in.Reason = truncateString(in.Reason, maxIntentString)
	in.Warning = truncateString(in.Warning, maxRecordedString)
	return in
}

// appendIntentAttributes appends the awf.intent.* span attributes to out; empty parts are left
// out.
func appendIntentAttributes(out []attribute.KeyValue, in tool.Intent, code string) []attribute.KeyValue {
	add := func(key, val string) {
		if val != "" {
			out = append(out, attribute.String(key, val))
		}
	}
	add("awf.intent.variant", string(in.Variant))
	add("awf.intent.decision", in.Decision)
	add("awf.intent.operation_type", in.OperationType)
	add("awf.intent.data_sensitivity", in.DataSensitivity)
	add("awf.intent.reason", in.Reason)
	add("awf.intent.warning", in.Warning)
	add("awf.intent.code", code)
	return out
}

// fieldsPool holds the field slices of log lines: zap encodes the fields during the call and
// keeps none of them (its observer for tests copies them), so a slice serves the next line.
var fieldsPool = sync.Pool{New: func() any { s := make([]zap.Field, 0, 20); return &s }}

// log writes the call's one line: Info on success, Warn on failure, refusal or policy warning,
// Error with the stack when a panic was recovered. Nothing is built for a level the logger
// does not write.
func (r *Router) log(c *call, durationMS float64, errText, traceID string) {
	level, msg := zapcore.InfoLevel, "tool call"
	switch {
	case c.stack != nil:
		level, msg = zapcore.ErrorLevel, "tool call panicked (awf bug)"
	case c.outcome != activity.OutcomeSuccess || c.intent.Warning != "":
		level = zapcore.WarnLevel
	}
	ce := r.opts.Logger.Check(level, msg)
	if ce == nil {
		return
	}
	decision := c.intent.Decision
	if decision == "" {
		decision = decisionUnknown
	}
	pooled := fieldsPool.Get().(*[]zap.Field)
	fields := (*pooled)[:0]
	fields = append(fields,
		zap.String("tool", c.name),
		zap.String("source", string(c.source)),
		zap.String("variant", string(c.intent.Variant)),
		zap.String("tool_own_variant", string(c.toolVariant)),
		zap.String("decision", decision),
		zap.String("outcome", string(c.outcome)),
		zap.Float64("duration_ms", durationMS),
		zap.String("step", r.opts.Step),
		zap.String("run_id", r.opts.RunID),
	)
	if errText != "" {
		fields = append(fields, zap.String("error", errText))
	}
	if c.intent.Warning != "" {
		fields = append(fields, zap.String("warning", c.intent.Warning))
	}
	if c.code != "" {
		fields = append(fields, zap.String("code", c.code))
	}
	for _, f := range [...]struct{ key, val string }{
		{"operation_type", c.intent.OperationType},
		{"data_sensitivity", c.intent.DataSensitivity},
		{"reason", c.intent.Reason},
	} {
		if f.val != "" {
			fields = append(fields, zap.String(f.key, f.val))
		}
	}
	if traceID != "" {
		fields = append(fields, zap.String("trace_id", traceID))
	}
	if sb := c.sandbox; sb != nil {
		fields = append(fields, zap.Bool("sandbox_enforced", sb.Enforced), zap.String("sandbox_policy", sb.Policy), zap.Bool("sandbox_network", sb.Network))
	}
	if len(c.content) > 0 {
		fields = append(fields, zap.Any("content", c.content))
	}
	if c.stack != nil {
		fields = append(fields, zap.ByteString("stack", c.stack))
	}
	ce.Write(fields...)
	clear(fields) // keep no strings alive from the pool
	*pooled = fields[:0]
	fieldsPool.Put(pooled)
}

// record appends the call's activity record. A failing sink is logged and never fails the call:
// losing a record is bad, losing the agent's work because of it is worse.
func (r *Router) record(ctx context.Context, c *call, durationMS float64, errText, traceID string) {
	if r.opts.Activity == nil {
		return
	}
	rec := activity.Record{
		ID:          newRecordID(),
		Time:        c.start.UTC(),
		RunID:       r.opts.RunID,
		Step:        r.opts.Step,
		Tool:        c.name,
		Source:      c.source,
		Arguments:   truncateArgs(c.args),
		DurationMS:  durationMS,
		Outcome:     c.outcome,
		Error:       errText,
		Code:        c.code,
		Intent:      c.intent,
		ToolVariant: c.toolVariant,
		TraceID:     traceID,
		Sandbox:     c.sandbox,
		Approval:    c.approval,
		Content:     c.content,
		Turn:        activity.TurnOf(ctx),
	}
	// The call's values but not its cancellation (a cancelled call is still recorded), and a
	// bound on waiting for the file's lock.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), activityTimeout)
	defer cancel()
	if err := r.opts.Activity.Append(actx, rec); err != nil {
		r.opts.Logger.Warn("activity record not written; the call itself went ahead",
			zap.String("tool", c.name), zap.String("record_id", rec.ID), zap.Error(err))
	}
}

// newRecordID returns 128 random bits in hex: unique across the processes appending to one
// activity file without any coordination.
func newRecordID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error since Go 1.24
	return hex.EncodeToString(b[:])
}
