package openai

import (
	"context"
	"encoding/json"
	"net/url"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// request sends one turn and accounts for it: one llm.request span (a child of the step span in
// ctx), one log line, and the token usage added to the result. The span and the log line never
// carry the API key, the prompt or the answer: only sizes, counts and the outcome.
func (l *loop) request(ctx context.Context, turn int, tools []toolSpec) (Turn, error) {
	body, err := json.Marshal(l.body(tools))
	if err != nil {
		return Turn{}, fault.Wrap(err, fault.SystemAgentEncode, "cannot encode the request for model %q", l.s.Model)
	}
	ctx, span := l.p.tracer.Start(ctx, "llm.request", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(
			attribute.String("gen_ai.system", Name),
			attribute.String("gen_ai.operation.name", "chat"),
			attribute.String("gen_ai.request.model", l.s.Model),
			attribute.String("server.address", hostOf(l.s.BaseURL)),
			attribute.Int("awf.llm.turn", turn),
			attribute.Int("awf.llm.tools", len(tools)),
			attribute.Int("awf.llm.request_bytes", len(body)),
			attribute.String("awf.run.id", l.req.RunID),
			attribute.String("awf.step", l.req.Step),
		))
	defer span.End()
	start := time.Now()
	x := &exchange{p: l.p, s: l.s, key: l.key, body: body}
	t, err := x.do(ctx)
	elapsed := time.Since(start)

	l.res.InputTokens += t.PromptTokens
	l.res.OutputTokens += t.CompletionTokens
	span.SetAttributes(
		attribute.Int("gen_ai.usage.input_tokens", t.PromptTokens),
		attribute.Int("gen_ai.usage.output_tokens", t.CompletionTokens),
		attribute.Int("awf.llm.attempts", x.attempts),
		attribute.Int("awf.llm.tool_calls", len(t.ToolCalls)),
	)
	if t.FinishReason != "" {
		span.SetAttributes(attribute.StringSlice("gen_ai.response.finish_reasons", []string{t.FinishReason}))
	}
	if t.Model != "" {
		span.SetAttributes(attribute.String("gen_ai.response.model", t.Model))
	}
	if x.status != 0 {
		span.SetAttributes(attribute.Int("http.response.status_code", x.status))
	}
	fields := []zap.Field{
		zap.String("run_id", l.req.RunID), zap.String("step", l.req.Step),
		zap.String("provider", Name), zap.String("model", l.s.Model), zap.String("server", hostOf(l.s.BaseURL)),
		zap.Int("turn", turn), zap.Int("attempts", x.attempts), zap.Int("status", x.status),
		zap.Float64("duration_ms", float64(elapsed.Microseconds())/1000),
		zap.Int("prompt_tokens", t.PromptTokens), zap.Int("completion_tokens", t.CompletionTokens),
		zap.String("finish_reason", t.FinishReason), zap.Int("tool_calls", len(t.ToolCalls)),
	}
	if sc := span.SpanContext(); sc.HasTraceID() {
		fields = append(fields, zap.String("trace_id", sc.TraceID().String()))
	}
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
		span.SetAttributes(attribute.String("awf.error.code", fault.CodeOf(err)))
		l.p.log.Warn("model request failed", append(fields, zap.String("error", err.Error()))...)
		return Turn{}, err
	}
	l.p.log.Info("model request", fields...)
	return t, nil
}

// body is the request of the next turn. tool_choice is sent only with tools: servers reject it
// alone. Usage is asked for in the stream, which most servers honour and the rest ignore.
func (l *loop) body(tools []toolSpec) chatRequest {
	r := chatRequest{
		Model:         l.s.Model,
		Messages:      l.msgs,
		Stream:        true,
		StreamOptions: &streamOptions{IncludeUsage: true},
		Temperature:   l.s.Temperature,
		MaxTokens:     l.s.MaxTokens,
	}
	if len(tools) > 0 {
		r.Tools, r.ToolChoice = tools, "auto"
	}
	return r
}

// hostOf is the host:port of base_url, for spans and logs (never the path or credentials).
func hostOf(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return ""
	}
	return u.Host
}
