package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/awf-dev/awf/internal/domain/redact"
)

// Option adjusts Setup.
type Option func(*setupOptions)

type setupOptions struct {
	red *redact.Redactor
}

// WithRedactor masks secrets in every exported span: its name, attributes, events (with their
// attributes, such as a recorded error's message) and status description.
func WithRedactor(r *redact.Redactor) Option {
	return func(o *setupOptions) { o.red = r }
}

// redactingExporter masks each span as it leaves the process. Masking at the exporter covers
// every span of every package, awf's or a library's, with one wrapper; spans that are never
// exported cost nothing.
type redactingExporter struct {
	sdktrace.SpanExporter
	red *redact.Redactor
}

// wrapExporter returns exp masking with red; exp itself when red is nil.
func wrapExporter(exp sdktrace.SpanExporter, red *redact.Redactor) sdktrace.SpanExporter {
	if red == nil {
		return exp
	}
	return redactingExporter{SpanExporter: exp, red: red}
}

// ExportSpans masks, then exports.
func (e redactingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	out := make([]sdktrace.ReadOnlySpan, len(spans))
	for i, s := range spans {
		out[i] = redactedSpan{ReadOnlySpan: s, red: e.red}
	}
	return e.SpanExporter.ExportSpans(ctx, out)
}

// redactedSpan is a span seen through the redactor. Embedding the interface keeps every method
// (and the SDK's private one); the ones that carry text are overridden.
type redactedSpan struct {
	sdktrace.ReadOnlySpan
	red *redact.Redactor
}

func (s redactedSpan) Name() string { return s.red.String(s.ReadOnlySpan.Name()) }

func (s redactedSpan) Attributes() []attribute.KeyValue {
	return redactAttrs(s.ReadOnlySpan.Attributes(), s.red)
}

func (s redactedSpan) Events() []sdktrace.Event {
	evs := s.ReadOnlySpan.Events()
	out := make([]sdktrace.Event, len(evs))
	for i, ev := range evs {
		ev.Name = s.red.String(ev.Name)
		ev.Attributes = redactAttrs(ev.Attributes, s.red)
		out[i] = ev
	}
	return out
}

func (s redactedSpan) Status() sdktrace.Status {
	st := s.ReadOnlySpan.Status()
	st.Description = s.red.String(st.Description)
	return st
}

// redactAttrs returns attrs with every string value masked; the input is not modified.
func redactAttrs(attrs []attribute.KeyValue, red *redact.Redactor) []attribute.KeyValue {
	out := make([]attribute.KeyValue, len(attrs))
	for i, kv := range attrs {
		switch kv.Value.Type() {
		case attribute.STRING:
			kv = attribute.String(string(kv.Key), red.String(kv.Value.AsString()))
		case attribute.STRINGSLICE:
			kv = attribute.StringSlice(string(kv.Key), red.Value(kv.Value.AsStringSlice()).([]string))
		}
		out[i] = kv
	}
	return out
}
